import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import { Authenticator } from '../src/access/authenticate.service.ts';
import type { Actor } from '../src/access/actor.ts';
import { API_VERSIONS, PRODUCT_VERSION } from '../src/platform/config.ts';
import { DomainError } from '../src/platform/errors.ts';
import type { Orm } from '../src/platform/orm.ts';
import { inScopedRequest } from '../src/access/admin-scope.ts';
import { runAs } from '../src/events/actor-context.ts';
import { basicAuth, type BasicAuthenticator } from '../src/platform/http/auth.ts';
import { isPublicId } from '../src/access/public-id.ts';
import { jsonBodyWithin } from '../src/platform/http/body.ts';
import { errorMiddleware } from './rails/errors.ts';
import { inRequestWait } from '../src/platform/request-database.ts';
import { buildOpenApi } from './rails/openapi.ts';
import { RateLimiter } from '../src/platform/http/rate-limit.ts';
import { routeMatcher, type RouteMatch } from './rails/route-matcher.ts';
import { isRemovedOperation } from './removed-routes.ts';
import { routes } from './routes.ts';
import { registerRestEventRenderers } from './events/event-renderers.ts';
import { registerItemSources } from '../src/item-sources.ts';
import { GRAPHQL_PATH } from '../schema/path.ts';
import { graphqlOnDemand } from '../schema/http-on-demand.ts';
import { ocpiMiddleware } from './ocpi/ocpi-router.ts';
import { ocpiRoutes } from './ocpi/ocpi-routes.ts';
import { logger } from '../src/platform/log.ts';
import { requestLog, routePattern } from '../src/platform/http/request-log.ts';
import { closeAfterUnreadBody } from '../src/platform/http/unread-body.ts';
import type { ServiceMetrics } from '../src/platform/metrics.ts';
import type { WorkerState } from '../src/worker/worker.ts';
import { healthRoutes } from './operations/health.ts';
import { METRICS_PATH, metricsEndpoint } from './operations/metrics.ts';
import { serviceMetrics } from '../src/service-metrics.ts';
import { staticSite } from '../src/platform/http/static-site.ts';
import { refuseCrossSiteWrites } from '../src/platform/http/cross-site.ts';

/** The operator console's built files (console/, `npm run console:build`), served at /console/. */
export const CONSOLE_PATH = '/console';
const CONSOLE_DIST = fileURLToPath(new URL('../console/dist/', import.meta.url));

export const API_PREFIX = '/main/v1';
const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** One unit of work per request, limited to the caller's administrations. */
function requestContext(orm: Orm) {
  return (ctx: Context, next: Next) => {
    const actor = ctx.state.actor as Actor;
    return runAs(actor.publicId, () => inScopedRequest(orm, actor.scope, (em) => {
      ctx.state.em = em;
      return next();
    }));
  };
}

type Layer = RouteMatch['pathAndMethod'][number];

/**
 * Runs the route matched above (ctx.state.route) rather than `api.routes()`, which would match
 * the path against every route a second time. A route's handler answers and never calls next,
 * so the first matching layer is the one the router would have run too.
 */
function dispatch(ctx: Context, next: Next) {
  const layer = ctx.state.route as Layer;
  ctx.params = layer.params(ctx.path, layer.captures(ctx.path), {});
  const stack = layer.stack as unknown as Middleware[];
  const run = (i: number): Promise<void> => (i < stack.length ? Promise.resolve(stack[i](ctx, () => run(i + 1))) : next());
  return run(0);
}

/** Middlewares run as one, in order, as `app.use` one after the other would run them. */
function chain(middlewares: Middleware[]): Middleware {
  return (ctx, next) => {
    const run = (i: number): Promise<void> => (i < middlewares.length ? Promise.resolve(middlewares[i](ctx, () => run(i + 1))) : next());
    return run(0);
  };
}

/** Access's authenticator as the HTTP Basic plumbing of both transports asks for it. */
function basicAuthenticator(authenticator: Authenticator): BasicAuthenticator {
  return {
    isUserId: isPublicId,
    authenticate: (publicId, secret, address) => authenticator.authenticate(publicId, secret, address),
  };
}

export interface AppOptions {
  authenticator?: Authenticator;
  /** The worker of this process, for readiness (GET /main/health/ready). */
  worker?: () => WorkerState;
  /** Metrics (GET /main/metrics); by default this app's own, reading through `orm`. */
  metrics?: ServiceMetrics;
}

/** The pattern of the route that served a request, for its log line and metrics (null: no route matched). */
function routeOf(ctx: Context): string | null {
  const layer = ctx.state.route as { path?: string } | undefined;
  if (layer?.path) return routePattern(layer.path);
  // Koa router (open routes, OCPI) names the layer it ran.
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return routePattern(matched);
  if (ctx.path === GRAPHQL_PATH || ctx.path === METRICS_PATH) return ctx.path;
  if (ctx.path.startsWith(`${GRAPHQL_PATH}/assets/`) && ctx.status < 400) return `${GRAPHQL_PATH}/assets/{asset}`;
  return null;
}

const callerOf = (ctx: Context): string | null => (ctx.state.actor as Actor | undefined)?.publicId ?? null;

export function createApp(orm: Orm, options: AppOptions = {}): Koa {
  const app = new Koa();
  // Changes made through this app record events whose data is what the GETs answer.
  registerRestEventRenderers();
  // A review-set closed through this app bills the period's fees of every area's periodic item source.
  registerItemSources();
  const authenticator = basicAuthenticator(options.authenticator ?? new Authenticator(orm));
  const limiter = new RateLimiter();
  const metrics = options.metrics ?? serviceMetrics(orm);
  // A 500: its stack with the request's id (the log's mixin adds it), never its body.
  app.on('error', (error, ctx) => {
    if ((error as { expose?: boolean }).expose) return;
    logger().error({ err: error, method: ctx?.method, route: ctx ? routeOf(ctx) : null }, 'internal error');
  });

  const match = routeMatcher(API_PREFIX, routes);
  // Operations that take a larger body than MAX_BODY_BYTES (a batch), by method and path pattern.
  const bodyLimits = new Map(routes.filter((route) => route.maxBodyBytes)
    .map((route) => [`${route.method.toUpperCase()} ${API_PREFIX}${route.path}`, route.maxBodyBytes]));
  const openApi = buildOpenApi(routes, API_PREFIX);

  const open = new Router({ strict: true });
  open.get('/main/version', (ctx) => {
    ctx.body = { version: PRODUCT_VERSION, api_versions: [...API_VERSIONS] };
  });
  open.get(OPENAPI_PATH, (ctx) => {
    ctx.body = openApi;
  });
  healthRoutes(open, { orm, worker: options.worker });

  // First: X-Request-Id, the request's log line and its metrics.
  app.use(requestLog({ routeOf, callerOf, observe: (record) => metrics.observeRequest(record) }));
  app.use(closeAfterUnreadBody);
  // Everything a request asks of the database (authentication included) counts against one bound.
  app.use((_ctx, next) => inRequestWait(next));
  app.use(errorMiddleware);
  // Everything but /main/v1 (its OpenAPI document is an open route): checked in turn; a path none of them answers ends in the API's path check (404).
  const others = [
    open.routes() as unknown as Middleware,
    metricsEndpoint(metrics, basicAuth(authenticator, limiter)),
    // The console: static files, no credentials; the page talks to /graphql with the operator's.
    staticSite({ prefix: CONSOLE_PATH, dir: CONSOLE_DIST, notBuilt: 'The console is not built: run npm run console:build (npm start builds it when its build tools are installed).' }),
    // OCPI peers: their own paths and Token auth, before the /main/v1 path check and Basic auth.
    ocpiMiddleware(orm, ocpiRoutes),
    graphqlOnDemand(orm, authenticator, limiter),
  ];
  const apiChain = chain([
    async (ctx: Context, next: Next) => {
      if (!ctx.path.startsWith(`${API_PREFIX}/`)) {
        throw new DomainError('route_not_found', `no such path: ${ctx.path}`);
      }
      if (isRemovedOperation(ctx.method, ctx.path)) throw new DomainError('route_not_found', `${ctx.method} ${ctx.path} was removed from the interface`);
      const matched = match(ctx.path, ctx.method);
      // A fixed path (add-virtual-token) outranks a parameter path (/:id) that happens to match it.
      const fixed = matched.path.filter((layer) => layer.paramNames.length === 0);
      const fixedWrongMethod = fixed.length > 0 && !matched.pathAndMethod.some((layer) => layer.paramNames.length === 0);
      if (!matched.route || fixedWrongMethod) {
        if (matched.path.length === 0) throw new DomainError('route_not_found', `no such path: ${ctx.path}`);
        const layers = fixedWrongMethod ? fixed : matched.path;
        const allowed = [...new Set(layers.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
        ctx.set('Allow', allowed.join(', '));
        throw new DomainError('method_not_allowed', `${ctx.method} is not allowed here; use ${allowed.join(', ')}`);
      }
      ctx.state.route = matched.pathAndMethod[0];
      return next();
    },
    refuseCrossSiteWrites,
    basicAuth(authenticator, limiter),
    jsonBodyWithin((ctx) => bodyLimits.get(`${ctx.method} ${(ctx.state.route as Layer).path}`)),
    requestContext(orm),
    dispatch,
  ]);
  const othersChain = chain([...others, apiChain]);
  // A /main/v1 request goes straight to the API's layers rather than through the five others, which would each pass it on.
  app.use((ctx, next) => (ctx.path.startsWith(`${API_PREFIX}/`) && ctx.path !== OPENAPI_PATH ? apiChain(ctx, next) : othersChain(ctx, next)));
  return app;
}
