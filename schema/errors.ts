// DomainErrors of services become GraphQL errors with the REST error code (extensions.code)
// and the argument they concern (extensions.param), instead of Yoga's masked "Unexpected error".
import { ValidationError as OrmValidationError } from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from 'koa';
import { databaseHealth, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../src/platform/database-health.ts';
import { DomainError } from '../src/platform/errors.ts';

function asDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof OrmValidationError) return new DomainError('invalid_input', error.message);
  return null;
}

export function errorExtensions(error: DomainError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: error.code };
  if (error.param) extensions.param = error.param;
  if (error.details?.length) extensions.details = error.details;
  return extensions;
}

const UNAVAILABLE_MESSAGE = 'the database is unavailable; retry later';
const UNAVAILABLE_CODE = 'SERVICE_UNAVAILABLE';

/** Database down: the whole answer is 503 with Retry-After (Yoga takes status and headers from extensions.http). */
function unavailableError(error: GraphQLError): GraphQLError {
  databaseHealth.report(error.originalError);
  return new GraphQLError(UNAVAILABLE_MESSAGE, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path,
    extensions: { code: UNAVAILABLE_CODE, http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } },
  });
}

/** For failures before execution (authentication): answers 503 and returns true when the database is down. */
export function answeredDatabaseUnavailable(ctx: Context, error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  databaseHealth.report(error);
  ctx.status = 503;
  ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  ctx.body = { errors: [{ message: UNAVAILABLE_MESSAGE, extensions: { code: UNAVAILABLE_CODE } }] };
  return true;
}

function toGraphQLError(error: GraphQLError): GraphQLError {
  if (isDatabaseUnavailable(error.originalError)) return unavailableError(error);
  const domain = asDomainError(error.originalError);
  if (!domain) return error;
  return new GraphQLError(domain.message, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path,
    extensions: errorExtensions(domain),
  });
}

/** Rewrites a request-body JSONPath of a service (`$.admin_id`) into one below a GraphQL argument (`$.input.adminId`). */
export function argumentPath(param: string, argument: string): string {
  const camel = param.slice(1).replace(/_([a-z0-9])/g, (_match, char: string) => char.toUpperCase());
  return `$.${argument}${camel}`;
}

export function inArgument(error: DomainError, argument: string): DomainError {
  return new DomainError(error.code, error.message, {
    param: error.param ? argumentPath(error.param, argument) : undefined,
    details: error.details?.map((detail) => ({ ...detail, param: detail.param ? argumentPath(detail.param, argument) : undefined })),
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
