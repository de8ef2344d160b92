// Every HTTP answer carries X-Request-Id and writes one log line (decisions: "Running"): time,
// request id, method, route pattern, status, duration, the credential's public id; never a secret,
// never a body. The id: src/platform/request-id.ts; whatever is logged while the request runs
// carries it (the logger's mixin, log.ts).
import type { Context, Next } from 'koa';
import { logger } from '../log.ts';
import { REQUEST_ID_HEADER, requestIdFor, withRequestId } from '../request-id.ts';

export interface RequestRecord {
  method: string;
  /** The route pattern (`/main/v1/customer/{id}`), or null for a path no route matched. */
  route: string | null;
  status: number;
  seconds: number;
}

export interface RequestLogOptions {
  /** The pattern of the route that served the request (null: none matched). */
  routeOf(ctx: Context): string | null;
  /** The public id of the credential that called (null: none, or not authenticated). */
  callerOf(ctx: Context): string | null;
  /** Each answered request (metrics). */
  observe?(record: RequestRecord): void;
}

/** Koa `:name` parameters as OpenAPI `{name}`: the pattern of a route in logs and metrics. */
export function routePattern(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function levelOf(status: number): 'info' | 'warn' | 'error' {
  if (status === 503) return 'warn';
  return status >= 500 ? 'error' : 'info';
}

/** The outermost middleware: request id, timing, the request's log line. */
export function requestLog(options: RequestLogOptions) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    const id = requestIdFor(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.state.requestId = id;
    ctx.set(REQUEST_ID_HEADER, id);
    await withRequestId(id, async () => {
      try {
        await next();
      } catch (error) {
        // Answered here rather than by Koa's default handler, which drops the headers (X-Request-Id).
        logger().error({ err: error }, 'request failed');
        ctx.status = 500;
        ctx.body = { code: 'internal_error', message: 'an internal error occurred' };
        ctx.set(REQUEST_ID_HEADER, id);
      }
      const seconds = (performance.now() - started) / 1000;
      const route = options.routeOf(ctx);
      const status = ctx.status;
      options.observe?.({ method: ctx.method, route, status, seconds });
      logger()[levelOf(status)]({
        request_id: id, method: ctx.method, route, status, duration_ms: Math.round(seconds * 10_000) / 10, public_id: options.callerOf(ctx),
      }, `${ctx.method} ${route ?? '(no route)'} ${status}`);
    });
  };
}
