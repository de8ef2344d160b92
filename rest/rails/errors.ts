import type { Context, Next } from 'koa';
import { ValidationError as OrmValidationError } from '@mikro-orm/core';
import { PRODUCT_VERSION } from '../../src/platform/config.ts';
import { databaseHealth, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../src/platform/database-health.ts';
import { DomainError } from '../../src/platform/errors.ts';

const STATUS_BY_CODE: Record<string, number> = {
  unauthorized: 401,
  forbidden: 403,
  route_not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
};

export function errorBody(error: DomainError): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.param) body.param = error.param;
  if (error.queryParam) body.query_param = error.queryParam;
  if (error.details?.length) body.details = error.details;
  return body;
}

/** The one place where failures become HTTP: X-SVC-Version on every answer, flat error bodies. */
export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-SVC-Version', PRODUCT_VERSION);
  try {
    await next();
  } catch (caught) {
    let error: DomainError;
    if (caught instanceof DomainError) {
      error = caught;
    } else if (caught instanceof OrmValidationError) {
      error = new DomainError('invalid_input', caught.message);
    } else if (isDatabaseUnavailable(caught)) {
      databaseHealth.report(caught);
      ctx.status = 503;
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      ctx.body = { code: 'service_unavailable', message: 'the database is unavailable; retry later' };
      return;
    } else {
      ctx.app.emit('error', caught, ctx);
      ctx.status = 500;
      ctx.body = { code: 'internal_error', message: 'an internal error occurred' };
      return;
    }
    ctx.status = STATUS_BY_CODE[error.code] ?? 400;
    ctx.body = errorBody(error);
    if (ctx.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="main"');
  }
}
