// GET /main/metrics (decisions: "Running"): the Prometheus text format of the service's series
// (src/service-metrics.ts), for any credential without an administration limit.
import type { Context, Next } from 'koa';
import type { Actor } from '../../src/access/actor.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { ServiceMetrics } from '../../src/platform/metrics.ts';

export const METRICS_PATH = '/main/metrics';

/**
 * Answers GET /main/metrics after Basic authentication (`authenticate`, the app's); a credential
 * limited to administrations gets 403: the series span every administration.
 */
export function metricsEndpoint(metrics: ServiceMetrics, authenticate: (ctx: Context, next: Next) => Promise<void>) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== METRICS_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new DomainError('method_not_allowed', `${ctx.method} is not allowed here; use GET, HEAD`);
    }
    await authenticate(ctx, async () => {});
    const actor = ctx.state.actor as Actor;
    if (!actor.scope.all) throw new DomainError('forbidden', 'the metrics span every administration: only a credential without an administration limit may read them');
    // An App credential serves an app's end users: the App API only (as on /main/v1).
    if (actor.role === 'app') throw new DomainError('forbidden', 'an App credential may call the App API only');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = await metrics.text();
  };
}
