// GraphQL parity: every write operation of the REST interface names the GraphQL field doing the
// same (`graphql` on its route definition), and that field exists. Writes left to REST only are
// the short list below, each with its reason.
import test from 'ava';
import { routes } from '../../rest/routes.ts';
import { schema } from '../../schema/index.ts';

/** Operations that stay REST only, and why. */
const REST_ONLY: Record<string, string> = {
  'POST /charge-session': 'machine-to-machine ingestion of a CPMS (decisions.md: ingestion stays REST)',
  'POST /cpo-charge-session': 'machine-to-machine ingestion of a CPMS',
  'POST /charge-session-batch': 'machine-to-machine ingestion of a CPMS, batched',
};

const operation = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;
const writes = routes.filter((route) => route.method !== 'get' && !route.deprecated);

test('every REST write operation names its GraphQL twin, or is REST only with a reason', (t) => {
  const missing = writes.filter((route) => !route.graphql && !(operation(route) in REST_ONLY)).map(operation);
  t.deepEqual(missing, []);
});

test('the GraphQL twins exist: a Mutation field, or a Query field for a POST that only reads', (t) => {
  const fields = { ...schema.getMutationType()!.getFields(), ...schema.getQueryType()!.getFields() };
  const unknown = writes.filter((route) => route.graphql && !(route.graphql in fields)).map((route) => `${operation(route)} → ${route.graphql}`);
  t.deepEqual(unknown, []);
});

test('the REST-only list names operations that exist and have no twin', (t) => {
  for (const name of Object.keys(REST_ONLY)) {
    const route = writes.find((candidate) => operation(candidate) === name);
    t.truthy(route, `${name} is not a write operation`);
    t.falsy(route?.graphql, `${name} has a GraphQL twin: take it off the list`);
  }
});
