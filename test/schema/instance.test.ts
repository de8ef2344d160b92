// GraphQL `instance` and `updateInstance`: the same service as REST GET and POST /instance.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const INSTANCE = '{ instance { name productVersion roamingEnabled } }';
const UPDATE = 'mutation ($input: InstanceInput!) { updateInstance(input: $input) { name productVersion roamingEnabled } }';
const rest = async () => {
  const r = (await app.request('GET', '/main/v1/instance')).body;
  return { name: r.name, productVersion: r.product_version, roamingEnabled: r.roaming_enabled };
};

test.serial('instance answers what GET /instance answers; updateInstance switches roaming on and off, merge-update', async (t) => {
  t.deepEqual((await data(app, INSTANCE)).instance, await rest());
  const on = (await data(app, UPDATE, { input: { roamingEnabled: true } })).updateInstance;
  t.like(on, { name: 'unnamed instance', roamingEnabled: true });
  t.deepEqual(on, await rest());
  const renamed = (await data(app, UPDATE, { input: { name: 'Graph Group' } })).updateInstance;
  t.like(renamed, { name: 'Graph Group', roamingEnabled: true });
  const off = (await data(app, UPDATE, { input: { roamingEnabled: false } })).updateInstance;
  t.like(off, { name: 'Graph Group', roamingEnabled: false });
  t.deepEqual((await data(app, INSTANCE)).instance, await rest());
  t.false((await rest()).roamingEnabled);
});

test.serial('bad input is answered like the other mutations (code and param below input) and changes nothing; readonly may not', async (t) => {
  const stored = await rest();
  for (const [input, code, param] of [
    [{ name: 'x'.repeat(256), roamingEnabled: true }, 'validation_failed', '$.input.name'],
    [{ name: ' ', roamingEnabled: true }, 'invalid_input', '$.input.name'],
    [{ roamingEnabled: null }, 'invalid_input', '$.input.roamingEnabled'],
  ] as const) {
    const r = await graphql(app, UPDATE, { input });
    const [error] = r.body.errors ?? [];
    t.is(error?.extensions?.code, code, JSON.stringify(input));
    const place = error?.extensions?.param ?? error?.extensions?.details?.[0]?.param;
    t.is(place, param, JSON.stringify(input));
    t.is(r.body.data?.updateInstance, null);
  }
  const wrongType = await graphql(app, UPDATE, { input: { roamingEnabled: 'yes' } });
  t.truthy(wrongType.body.errors?.length);
  const readonly = await app.credential({ role: 'readonly' });
  const refused = await graphql(app, UPDATE, { input: { roamingEnabled: true } }, readonly);
  t.is(refused.status, 403);
  t.deepEqual(await rest(), stored, 'nothing changed');
});
