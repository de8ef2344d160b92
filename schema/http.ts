import type { Context, Next } from 'koa';
import type { Authenticator } from '../src/access/authenticate.service.ts';
import type { Orm } from '../src/platform/orm.ts';
import type { RateLimiter } from '../rest/rails/rate-limit.ts';

/** Placeholder until the GraphQL schema lands: /graphql is not served yet. */
export function graphqlMiddleware(_orm: Orm, _authenticator: Authenticator, _limiter: RateLimiter) {
  return (_ctx: Context, next: Next) => next();
}
