import type { Context, Next } from 'koa';
import type { Authenticator } from '../../src/access/authenticate.service.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { RateLimiter } from './rate-limit.ts';

function parseBasic(header: string | undefined): { publicId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { publicId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** HTTP Basic for /main/v1: sets ctx.state.actor or answers 401 (429 past a credential's rate). */
export function basicAuth(authenticator: Authenticator, limiter: RateLimiter) {
  return async (ctx: Context, next: Next) => {
    const given = parseBasic(ctx.get('authorization'));
    const actor = given ? await authenticator.authenticate(given.publicId, given.secret) : null;
    if (!actor) throw new DomainError('unauthorized', 'missing or wrong credentials');
    try {
      limiter.check(actor.publicId.toLowerCase(), actor.rateLimitPerMinute);
    } catch (error) {
      const retryAfter = (error as { retryAfter?: number }).retryAfter;
      if (retryAfter) ctx.set('Retry-After', String(retryAfter));
      throw error;
    }
    ctx.state.actor = actor;
    return next();
  };
}
