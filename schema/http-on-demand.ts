// /graphql loaded at its first request, or when the service starts (loadGraphql): the schema's
// build and GraphQL Yoga are half a second of CPU that an app answering only REST never needs (a
// CLI's, a test's).
import type { Context, Next } from 'koa';
import type { Orm } from '../src/platform/orm.ts';
import type { BasicAuthenticator } from '../src/platform/http/auth.ts';
import type { RateLimiter } from '../src/platform/http/rate-limit.ts';
import { GRAPHQL_PATH } from './path.ts';

type GraphqlHttp = typeof import('./http.ts');

let loading: Promise<GraphqlHttp> | undefined;

/** Loads the GraphQL transport (and builds its schema) once; the service does at start, so that it starts ready. */
export function loadGraphql(): Promise<GraphqlHttp> {
  loading ??= import('./http.ts');
  return loading;
}

export function graphqlOnDemand(orm: Orm, authenticator: BasicAuthenticator, limiter: RateLimiter) {
  let middleware: Promise<(ctx: Context, next: Next) => Promise<unknown>> | undefined;
  return (ctx: Context, next: Next) => {
    if (ctx.path !== GRAPHQL_PATH && !ctx.path.startsWith(`${GRAPHQL_PATH}/`)) return next();
    middleware ??= loadGraphql().then((http) => http.graphqlMiddleware(orm, authenticator, limiter));
    return middleware.then((answer) => answer(ctx, next));
  };
}
