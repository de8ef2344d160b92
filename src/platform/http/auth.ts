import type { Context, Next } from 'koa';
import type { Authenticator } from '../../access/authenticate.service.ts';
import { isPublicId } from '../../access/public-id.ts';
import { DomainError } from '../errors.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Null unless the header is Basic with a user id that could name a credential (no NUL or other controls). */
function parseBasic(header: string | undefined): { publicId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const publicId = decoded.slice(0, colon);
  if (!isPublicId(publicId)) return null;
  return { publicId, secret: decoded.slice(colon + 1) };
}

function setRetryAfter(ctx: Context, error: unknown): void {
  const retryAfter = (error as { retryAfter?: number }).retryAfter;
  if (retryAfter) ctx.set('Retry-After', String(retryAfter));
}

/**
 * HTTP Basic for /main/v1: sets ctx.state.actor or answers 401; 429 past a credential's rate and
 * while failed sign-ins from the client's address (ctx.ip) or for the public id are throttled.
 */
export function basicAuth(authenticator: Authenticator, limiter: RateLimiter) {
  return async (ctx: Context, next: Next) => {
    const given = parseBasic(ctx.get('authorization'));
    let actor;
    try {
      actor = given ? await authenticator.authenticate(given.publicId, given.secret, ctx.ip) : null;
      if (actor) limiter.check(actor.publicId.toLowerCase(), actor.rateLimitPerMinute);
    } catch (error) {
      setRetryAfter(ctx, error);
      throw error;
    }
    if (!actor) throw new DomainError('unauthorized', 'missing or wrong credentials');
    ctx.state.actor = actor;
    return next();
  };
}
