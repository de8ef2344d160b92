// DomainErrors of services become GraphQL errors with the REST error code (extensions.code)
// and the argument they concern (extensions.param), instead of Yoga's masked "Unexpected error".
// A service names the place of a failure as data (`['admin_id']`); here it becomes the path of a
// field argument (`$.first`) or of a member below an input argument (`$.input.adminId`).
import { ValidationError as OrmValidationError } from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from 'koa';
import { RETRY_AFTER_SECONDS, serviceUnavailableMessage } from '../src/platform/database-health.ts';
import type { GraphQLErrorCode } from '../src/platform/error-codes.ts';
import { DomainError, type ErrorDetail } from '../src/platform/errors.ts';
import type { FieldPath } from '../src/platform/field-path.ts';
import { jsonPath } from '../src/platform/json-path.ts';

function asDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof OrmValidationError) return new DomainError('invalid_input', error.message);
  return null;
}

function renderedDetail(detail: ErrorDetail): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  if (detail.path) rendered.param = jsonPath(detail.path);
  if (detail.queryParam !== undefined) rendered.query_param = detail.queryParam;
  rendered.message = detail.message;
  return rendered;
}

export function errorExtensions(error: DomainError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: error.code };
  if (error.fieldPath) extensions.param = jsonPath(error.fieldPath);
  // Only the transport's own query parameters (a GET's variables, extensions), as REST names them.
  if (error.queryParam) extensions.query_param = error.queryParam;
  if (error.details?.length) extensions.details = error.details.map(renderedDetail);
  return extensions;
}

const UNAVAILABLE_CODE: GraphQLErrorCode = 'SERVICE_UNAVAILABLE';

/** The extensions of a database failure: the whole answer is 503 with Retry-After (Yoga takes status and headers from extensions.http). */
export const UNAVAILABLE_EXTENSIONS = { code: UNAVAILABLE_CODE, http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } };

/** Database down or not answering in time: SERVICE_UNAVAILABLE, HTTP 503. */
function unavailableError(error: GraphQLError, message: string): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: UNAVAILABLE_EXTENSIONS,
  });
}

/** For failures before execution (authentication): answers 503 and returns true when the database is down. */
export function answeredDatabaseUnavailable(ctx: Context, error: unknown): boolean {
  const message = serviceUnavailableMessage(error);
  if (message === null) return false;
  ctx.status = 503;
  ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  ctx.body = { errors: [{ message, extensions: { code: UNAVAILABLE_CODE } }] };
  return true;
}

function toGraphQLError(error: GraphQLError): GraphQLError {
  const unavailable = serviceUnavailableMessage(error.originalError);
  if (unavailable !== null) return unavailableError(error, unavailable);
  const domain = asDomainError(error.originalError);
  if (!domain) return error;
  return new GraphQLError(domain.message, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path,
    extensions: errorExtensions(domain),
  });
}

/** `admin_id` as GraphQL spells the member: `adminId` (an underscore before a lowercase letter or digit goes). */
function camelCase(name: string): string {
  let camel = '';
  for (let i = 0; i < name.length; i++) {
    const next = name[i + 1];
    if (name[i] === '_' && next !== undefined && ((next >= 'a' && next <= 'z') || (next >= '0' && next <= '9'))) {
      camel += next.toUpperCase();
      i++;
    } else {
      camel += name[i];
    }
  }
  return camel;
}

export interface InputArgument {
  /** The argument's name (`input`). */
  name: string;
  /** Members holding JSON (a definition): below them the names stay as the client wrote them. */
  jsonMembers?: readonly string[];
}

/** A service's place below the argument: `['admin_ids', 1]` is `['input', 'adminIds', 1]`. */
export function argumentPath(path: FieldPath, argument: InputArgument): FieldPath {
  const [member, ...below] = path;
  if (typeof member === 'string' && argument.jsonMembers?.includes(member)) return [argument.name, member, ...below];
  return [argument.name, ...path.map((part) => (typeof part === 'string' ? camelCase(part) : part))];
}

/** The failure of a service called for a field, placed below the field's input argument. */
export function inArgument(error: DomainError, argument: string | InputArgument): DomainError {
  const place = typeof argument === 'string' ? { name: argument } : argument;
  return new DomainError(error.code, error.message, {
    path: error.fieldPath && argumentPath(error.fieldPath, place),
    details: error.details?.map((detail) => ({ ...detail, path: detail.path && argumentPath(detail.path, place) })),
  });
}

/** The failure of a service called with plain field arguments: its `['plan_id']` is the argument `planId` (`$.planId`). */
export function inArguments(error: DomainError): DomainError {
  const rename = (path: FieldPath): FieldPath => path.map((part) => (typeof part === 'string' ? camelCase(part) : part));
  return new DomainError(error.code, error.message, {
    path: error.fieldPath && rename(error.fieldPath),
    details: error.details?.map((detail) => ({ ...detail, path: detail.path && rename(detail.path) })),
  });
}

export const domainErrors: Plugin = {
  onExecute() {
    return {
      onExecuteDone({ result, setResult }) {
        if (Symbol.asyncIterator in result || !result.errors?.length) return;
        setResult({ ...result, errors: result.errors.map(toGraphQLError) });
      },
    };
  },
};
