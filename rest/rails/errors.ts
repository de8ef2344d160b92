import type { Context, Next } from 'koa';
import { ValidationError as OrmValidationError } from '@mikro-orm/core';
import { PRODUCT_VERSION } from '../../src/platform/config.ts';
import { RETRY_AFTER_SECONDS, serviceUnavailableMessage } from '../../src/platform/database-health.ts';
import { ERROR_CODES, type ErrorCode } from '../../src/platform/error-codes.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { ErrorBody } from './error-shape.ts';
import { MAX_DETAILS } from '../../src/platform/input-validation.ts';
import { jsonPath } from '../../src/platform/json-path.ts';

type DetailBody = NonNullable<ErrorBody['details']>[number];

const MAX_TEXT = 500;
const MAX_ERROR_BYTES = 60 * 1024;

/** At most MAX_TEXT characters (a message may quote a whole rejected value). */
function clip(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const cut = text.slice(0, MAX_TEXT - 3);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}...`;
}

/** A flat error body, bounded (decisions.md "Limits"): at most 50 details and under 64 KB. */
export function errorBody(error: DomainError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: clip(error.message) };
  if (error.fieldPath) body.param = clip(jsonPath(error.fieldPath));
  if (error.queryParam) body.query_param = clip(error.queryParam);
  if (error.details?.length) {
    let size = Buffer.byteLength(JSON.stringify(body));
    const details: DetailBody[] = [];
    for (const detail of error.details.slice(0, MAX_DETAILS)) {
      const bounded: DetailBody = { message: clip(detail.message) };
      if (detail.path !== undefined) bounded.param = clip(jsonPath(detail.path));
      if (detail.queryParam !== undefined) bounded.query_param = clip(detail.queryParam);
      size += Buffer.byteLength(JSON.stringify(bounded)) + 1;
      if (size > MAX_ERROR_BYTES) break;
      details.push(bounded);
    }
    body.details = details;
  }
  return body;
}

/**
 * The one place where failures become HTTP: X-SVC-Version on every answer, flat error bodies. Every
 * answer is also read as the type it names (no sniffing) and framed by no page (GraphiQL's included).
 */
export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-SVC-Version', PRODUCT_VERSION);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  try {
    await next();
  } catch (caught) {
    let error: DomainError;
    let unavailable: string | null = null;
    if (caught instanceof DomainError) {
      error = caught;
    } else if (caught instanceof OrmValidationError) {
      error = new DomainError('invalid_input', caught.message);
    } else if ((unavailable = serviceUnavailableMessage(caught)) !== null) {
      // Unreachable, or not answering within the request's bound (src/platform/request-database.ts).
      ctx.status = 503;
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      ctx.body = { code: 'service_unavailable' satisfies ErrorCode, message: unavailable };
      return;
    } else {
      ctx.app.emit('error', caught, ctx);
      ctx.status = 500;
      ctx.body = { code: 'internal_error' satisfies ErrorCode, message: 'an internal error occurred' };
      return;
    }
    ctx.status = ERROR_CODES[error.code].status;
    ctx.body = errorBody(error);
    if (ctx.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="main"');
  }
}
