// A record's own external reference is at least 1 character on every write of both transports
// (`externalReference` of src/platform/input-schemas.ts); null removes it. Found by probing
// (2026-11-29): "" was stored by some writes (no `ext_ref.` path can name it) and made the next ""
// a unique violation (500) where a duplicate check took "" for no reference.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType,
  type GraphQLArgument, type GraphQLField, type GraphQLInputType,
} from 'graphql';
import { routes } from '../../../rest/routes.ts';
import { schema } from '../../../schema/index.ts';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { graphql } from '../../schema/graphql.ts';
import { runCli } from '../../helpers/process.ts';

let app: TestApp;
let appAuth: Auth;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  appAuth = await app.credential({ role: 'app' });
});
test.after.always(async () => { await app?.close(); });

interface Answer { status: number; code?: string; params: string[] }

const paramsOf = (error: { param?: string; details?: { param?: string }[] } | undefined): string[] =>
  [error?.param, ...(error?.details ?? []).map((d) => d.param)].filter((p): p is string => typeof p === 'string');

const OWN = /^(new_)?external_reference$/;

test('REST: every write whose body sets a record\'s own external reference refuses "" at that member', async (t) => {
  const failures: string[] = [];
  let checked = 0;
  for (const route of routes) {
    if (route.method === 'get' || !route.body) continue;
    const members = Object.keys((route.body.describe() as { fields: Record<string, unknown> }).fields).filter((m) => OWN.test(m));
    for (const member of members) {
      checked++;
      const path = route.path.replace(/:\w+/g, () => randomUUID());
      const r = await app.request(route.method.toUpperCase(), `/main/v1${path}`, { body: { [member]: '' }, auth: route.api === 'app' ? appAuth : undefined });
      const answer: Answer = { status: r.status, code: r.body?.code, params: paramsOf(r.body) };
      if (answer.status !== 400 || answer.code !== 'validation_failed' || !answer.params.includes(`$.${member}`)) {
        failures.push(`${route.method.toUpperCase()} ${route.path} ${member}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
  }
  t.true(checked > 30, `${checked} members checked`);
  t.deepEqual(failures, []);
});

/** A plausible value of a required argument or input field: the refusal must come from the reference. */
function base(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return base(type.ofType, name);
  if (isListType(type)) return [base(type.ofType, name)];
  if (isInputObjectType(type)) {
    return Object.fromEntries(Object.values(type.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, base(f.type, f.name)]));
  }
  if (isEnumType(type)) return type.getValues()[0].name;
  const byName: Record<string, unknown> = {
    adminId, country: 'NL', currency: 'EUR', url: 'https://example.com/hook', secret: 'whsec-reference-0123456789abcdef', kinds: 'customer',
    name: 'Reference', validFrom: '2026-01-01T00:00:00Z', email: 'reference@example.com', username: 'reference',
  };
  if (name in byName) return byName[name];
  switch (type.name) {
    case 'ID': return randomUUID();
    case 'Int': return 1;
    case 'Boolean': return false;
    case 'DateTime': return '2026-01-01T00:00:00Z';
    case 'JSON': return {};
    default: return 'x';
  }
}

/** `$.input.externalReference`-like places of a field's own reference. */
function ownPlaces(field: GraphQLField<unknown, unknown>): string[][] {
  return field.args.flatMap((arg: GraphQLArgument) => {
    if (arg.name === 'externalReference') return [[arg.name]];
    const named = getNamedType(arg.type);
    if (!isInputObjectType(named)) return [];
    return Object.keys(named.getFields()).filter((name) => name === 'externalReference' || name === 'newExternalReference').map((name) => [arg.name, name]);
  });
}

test('GraphQL: every mutation that sets a record\'s own external reference refuses "" at that member', async (t) => {
  const failures: string[] = [];
  let checked = 0;
  for (const field of Object.values(schema.getMutationType()!.getFields())) {
    for (const place of ownPlaces(field)) {
      checked++;
      const variables: Record<string, unknown> = {};
      for (const arg of field.args) {
        if (isNonNullType(arg.type) || arg.name === place[0]) variables[arg.name] = base(arg.type, arg.name);
      }
      if (place.length === 1) variables[place[0]] = '';
      else variables[place[0]] = { ...(variables[place[0]] as object), [place[1]]: '' };
      const defs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const r = await graphql(app, `mutation (${defs}) { f: ${field.name}(${args}) { __typename } }`, variables, field.name === 'registerEndUser' ? appAuth : undefined);
      const [error] = r.body.errors ?? [];
      const params = paramsOf(error?.extensions as { param?: string; details?: { param?: string }[] } | undefined);
      const expected = `$.${place.join('.')}`;
      if (error?.extensions?.code !== 'validation_failed' || !params.includes(expected)) {
        failures.push(`${field.name} ${expected}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
  }
  t.true(checked > 30, `${checked} members checked`);
  t.deepEqual(failures, []);
});

// Found by probing (2026-11-29): `seller create` stored "" (the CLI passes the flag as given), and
// the next one failed with PostgreSQL's unique violation and its detail; one taken likewise.
test.serial('CLI seller create refuses "" at external_reference and answers a taken one as duplicate', async (t) => {
  const env = { DATABASE_URL: app.databaseUrl };
  const empty = await runCli(['seller', 'create', '--name', 'Empty', '--country', 'NL', '--external-reference', ''], env);
  t.is(empty.code, 1);
  t.regex(empty.stderr, /^validation_failed: \$\.external_reference: /m);
  const reference = `SELLER-${randomUUID()}`;
  t.is((await runCli(['seller', 'create', '--name', 'First', '--country', 'NL', '--external-reference', reference], env)).code, 0);
  const taken = await runCli(['seller', 'create', '--name', 'Second', '--country', 'NL', '--external-reference', reference.toLowerCase()], env);
  t.is(taken.code, 1);
  t.regex(taken.stderr, /^duplicate: \$\.external_reference: /m);
  t.notRegex(taken.stderr, /constraint|detail/);
  const blank = await runCli(['seller', 'create', '--name', '   ', '--country', 'NL'], env);
  t.regex(blank.stderr, /^invalid_input: \$\.name: /m);
  const rows = await app.orm.em.fork().getConnection().execute(`select name from seller where external_reference = '' or name in ('Empty', 'Second', '   ')`);
  t.deepEqual(rows, []);
});
