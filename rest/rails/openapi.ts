import type { RouteDef } from './route.ts';

/** Placeholder: replaced by the generator from route definitions. */
export function buildOpenApi(routes: RouteDef[], prefix: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = { summary: route.summary, deprecated: route.deprecated || undefined };
  }
  return { openapi: '3.1.0', info: { title: 'main', version: '1' }, servers: [{ url: prefix }], paths };
}
