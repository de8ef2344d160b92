// The OCPI transport: /ocpi/versions and /ocpi/2.2.1/..., beside /main/v1 and outside its Basic auth.
// Every answer is the OCPI envelope; the caller is the peer whose accepted token it presents
// (`Authorization: Token <base64>`); bodies are strict JSON objects checked by the route against
// src/ocpi/schemas (a failure is OCPI 2001 with HTTP 400); data we answer is checked as we send it.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { DomainError } from '../../src/platform/errors.ts';
import { RETRY_AFTER_SECONDS, serviceUnavailableMessage } from '../../src/platform/database-health.ts';
import { jsonBody } from '../../src/platform/http/body.ts';
import type { Em, Orm } from '../../src/platform/orm.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { NO_VALID_TOKEN, OcpiError, OCPI_STATUS } from '../../src/ocpi/errors.ts';
import type { PeerStatus } from '../../src/ocpi/ocpi-peer.entity.ts';
import { peerByToken, type OcpiPeerData } from '../../src/ocpi/ocpi-peer.queries.ts';
import type { OcpiSchemaName } from '../../src/ocpi/schemas/index.ts';
import { tokenOf } from '../../src/ocpi/token-header.ts';
import { sendOcpi } from '../../src/ocpi/validate.ts';
import { logger } from '../../src/platform/log.ts';
import { urlValueFailure } from '../rails/input-guards.ts';

export const OCPI_PREFIX = '/ocpi';

export interface OcpiRouteInput {
  ctx: Context;
  em: Em;
  peer: OcpiPeerData;
  body: unknown;
  params: Record<string, string>;
  query: Record<string, string>;
}

export interface OcpiAnswer {
  data?: unknown;
  /** The schema of data (checked before it is sent). */
  schema?: OcpiSchemaName;
}

export interface OcpiRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Below /ocpi. */
  path: string;
  /** The peer states that may call it (default: registered). */
  peers?: readonly PeerStatus[];
  handler(input: OcpiRouteInput): Promise<OcpiAnswer>;
}

function envelope(ctx: Context, httpStatus: number, statusCode: number, message: string, data?: unknown) {
  ctx.status = httpStatus;
  ctx.body = sendOcpi('envelope', {
    ...(data === undefined ? {} : { data }), status_code: statusCode, status_message: message, timestamp: new Date().toISOString(),
  });
}

/**
 * Path segments are identifiers, refused as /main/v1 refuses them (rest/rails/input-guards.ts): a
 * control character (NUL included, which PostgreSQL cannot take) or more than 1,000 characters is
 * OCPI 2001 with HTTP 400 before any query.
 */
function checkPath(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    const failure = urlValueFailure(value);
    if (failure) throw new OcpiError(OCPI_STATUS.invalidParameters, `path segment ${name} ${failure}`, 400);
  }
}

/**
 * Every OCPI message a peer sends us (a CDR, Session, Tariff, CommandResult, Credentials) is a JSON
 * object: any other body (none, null, an array, a number, a string) is 2001 / HTTP 400 before the
 * route reads it.
 */
function checkBody(method: OcpiRoute['method'], body: unknown): void {
  if (method === 'get' || method === 'delete') return;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, 'the body must be a JSON object (the OCPI object this module takes)', 400);
  }
}

/** The query parameters given once (a repeated one is left out). */
export function queryOf(ctx: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(ctx.query).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function ocpiMiddleware(orm: Orm, routes: OcpiRoute[]) {
  const router = new Router({ prefix: OCPI_PREFIX, strict: true });
  for (const route of routes) {
    router[route.method](route.path, async (ctx: Context) => {
      const em = scopedEm(orm);
      const token = tokenOf(ctx.get('authorization'));
      const peer = token ? await peerByToken(em, token) : null;
      if (!peer || !(route.peers ?? ['registered']).includes(peer.status)) {
        if (peer?.status === 'registered' && route.method === 'post') return envelope(ctx, 405, OCPI_STATUS.clientError, 'registered already: use PUT to update');
        return envelope(ctx, 401, OCPI_STATUS.clientError, NO_VALID_TOKEN);
      }
      checkPath(ctx.params as Record<string, string>);
      await jsonBody(ctx, async () => {});
      checkBody(route.method, ctx.state.body);
      const answer = await route.handler({ ctx, em, peer, body: ctx.state.body, params: ctx.params as Record<string, string>, query: queryOf(ctx) });
      const data = answer.schema ? sendOcpi(answer.schema, answer.data) : answer.data;
      envelope(ctx, 200, OCPI_STATUS.success, 'Success', data);
    });
  }
  const dispatch = router.routes();
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== OCPI_PREFIX && !ctx.path.startsWith(`${OCPI_PREFIX}/`)) return next();
    try {
      await dispatch(ctx as Parameters<typeof dispatch>[0], async () => {});
      if (ctx.body === undefined) {
        const known = router.match(ctx.path, ctx.method).path.length > 0;
        envelope(ctx, known ? 405 : 404, OCPI_STATUS.clientError, known ? `${ctx.method} is not allowed here` : `no such OCPI path: ${ctx.path}`);
      }
    } catch (error) {
      if (error instanceof OcpiError) return envelope(ctx, error.httpStatus, error.statusCode, error.message);
      if (error instanceof DomainError) return envelope(ctx, 400, OCPI_STATUS.invalidParameters, error.message);
      // The database unreachable or not answering within the request bound: 503 with Retry-After, as on /main/v1.
      const unavailable = serviceUnavailableMessage(error);
      if (unavailable !== null) {
        ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
        return envelope(ctx, 503, OCPI_STATUS.serverError, unavailable);
      }
      logger().error({ err: error, method: ctx.method, route: ctx._matchedRoute ?? null }, 'internal error (OCPI)');
      envelope(ctx, 500, OCPI_STATUS.serverError, 'internal error');
    }
  };
}

/** This service's base URL as the caller reached it (used when SVC_OCPI_PUBLIC_URL is unset). */
export function originOf(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
