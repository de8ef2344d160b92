// The matcher with a router per first path segment answers as one router of every route would, for
// every route's path (its parameters filled in), in other cases (ASCII and Unicode: unknown paths,
// as paths match case-sensitively), with a trailing slash, under an unknown segment, and for every method: the same layers, in the same order.
import Router from '@koa/router';
import test from 'ava';
import { API_PREFIX } from '../../../rest/app.ts';
import { mountRoutes } from '../../../rest/rails/route.ts';
import { routeMatcher, type RouteMatch } from '../../../rest/rails/route-matcher.ts';
import { routes } from '../../../rest/routes.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const seen = (matched: RouteMatch) => ({
  route: matched.route,
  path: matched.path.map((layer) => `${layer.methods.join(',')} ${layer.path}`),
  pathAndMethod: matched.pathAndMethod.map((layer) => `${layer.methods.join(',')} ${layer.path}`),
});

test('every path matches the same layers as in one router of all routes', (t) => {
  const all = new Router({ prefix: API_PREFIX, strict: true, sensitive: true });
  mountRoutes(all, routes);
  const match = routeMatcher(API_PREFIX, routes);
  const paths = new Set<string>([`${API_PREFIX}/`, `${API_PREFIX}/no-such-thing`, `${API_PREFIX}/no-such-thing/x1/z`]);
  for (const route of routes) {
    const filled = `${API_PREFIX}${route.path.replace(/:[a-z_]+/gi, 'x1')}`;
    // Letters whose Unicode case folding is ASCII (Kelvin sign, long s, dotted capital I) must not reach another segment's routes.
    const unicodeCase = filled.replace(/k/g, '\u212A').replace(/s/g, '\u017F').replace(/i/g, '\u0130');
    for (const path of [filled, filled.toUpperCase(), unicodeCase, `${filled}/`, `${filled}/extra`, filled.replace(/x1/g, 'ext_ref.A-b')]) paths.add(path);
  }
  let matchedRoutes = 0;
  for (const path of paths) {
    for (const method of METHODS) {
      const expected = seen(all.match(path, method));
      // Twice: the second answer may come from the kept matches of paths without parameters.
      t.deepEqual(seen(match(path, method)), expected, `${method} ${path}`);
      t.deepEqual(seen(match(path, method)), expected, `${method} ${path} (again)`);
      if (expected.route) matchedRoutes++;
    }
  }
  t.true(matchedRoutes >= routes.length);
});
