import type { Context, Next } from 'koa';
import { DomainError } from '../errors.ts';
import type { RateLimiter } from './rate-limit.ts';

/** The caller Basic credentials name, as far as this plumbing needs it (access's `Actor` is one). */
export interface BasicCaller { publicId: string; rateLimitPerMinute: number | null }

/**
 * What HTTP Basic needs of whoever checks credentials; the composition root wires access's
 * authenticator into it (rest/app.ts).
 */
export interface BasicAuthenticator {
  /** Whether a user id could name a credential at all: anything else is refused without a look-up. */
  isUserId(userId: string): boolean;
  /** The caller, or null for a wrong credential; throws (with `retryAfter`) when throttled. */
  authenticate(userId: string, secret: string, address: string): Promise<BasicCaller | null>;
}

/** Null unless the header is Basic with a user id that could name a credential (no NUL or other controls). */
function parseBasic(header: string | undefined, isUserId: (userId: string) => boolean): { publicId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const publicId = decoded.slice(0, colon);
  if (!isUserId(publicId)) return null;
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
export function basicAuth(authenticator: BasicAuthenticator, limiter: RateLimiter) {
  return async (ctx: Context, next: Next) => {
    const given = parseBasic(ctx.get('authorization'), (userId) => authenticator.isUserId(userId));
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
