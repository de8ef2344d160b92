// Matching a /main/v1 path against the routes. @koa/router tries the pattern of every route (a
// few hundred) on each request. Here each first path segment has a router of its own, holding the
// routes whose pattern starts with that segment and those that start with a parameter, in their
// order: the same layers match as in one router of all the routes, since no other route can. What a
// path without parameters matches is the same every time and is kept: a finite set, the routes' own
// paths, as paths match case-sensitively (decisions: paths are matched strictly; matched
// case-insensitively, every casing of a path was kept, a memory anyone could grow without a credential).
import Router from '@koa/router';
import { mountRoutes, type RouteDef } from './route.ts';

export type RouteMatch = ReturnType<Router['match']>;

/** The first segment of a path under `prefix` (`/main/v1/customer/x` → `customer`). */
const firstSegment = (path: string, prefix: string): string => path.slice(prefix.length + 1).split('/', 1)[0];
const startsWithParameter = (route: RouteDef): boolean => route.path.startsWith('/:');

/** A bound on the kept matches all the same (the routes' own paths and methods are a few hundred). */
const MAX_FIXED = 10_000;

export function routeMatcher(prefix: string, routes: RouteDef[]): (path: string, method: string) => RouteMatch {
  // strict: a trailing slash is another (unknown) path, 404 (decisions: no trailing slashes); sensitive: so is another casing.
  const routerOf = (subset: RouteDef[]) => {
    const router = new Router({ prefix, strict: true, sensitive: true });
    mountRoutes(router, subset);
    return router;
  };
  const segments = new Set(routes.filter((route) => !startsWithParameter(route)).map((route) => firstSegment(`${prefix}${route.path}`, prefix)));
  const bySegment = new Map([...segments].map((segment) => [segment, routerOf(routes.filter((route) => startsWithParameter(route)
    || firstSegment(`${prefix}${route.path}`, prefix) === segment))]));
  const others = routerOf(routes.filter(startsWithParameter));

  const fixedMatches = new Map<string, RouteMatch>();
  return (path, method) => {
    const key = `${method} ${path}`;
    const known = fixedMatches.get(key);
    if (known) return known;
    const matched = (bySegment.get(firstSegment(path, prefix)) ?? others).match(path, method);
    if (matched.route && matched.path.every((layer) => layer.paramNames.length === 0) && fixedMatches.size < MAX_FIXED) fixedMatches.set(key, matched);
    return matched;
  };
}
