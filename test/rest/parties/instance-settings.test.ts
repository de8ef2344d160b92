// POST /instance over HTTP: merge-update of name and roaming_enabled (GET /instance shows it),
// bad input 400 with param and nothing changed, an event per change, who may write (only a credential
// without an administration limit; decisions.md "Access to instance-wide data"), and the
// switch deciding whether a roaming partner's session gets its roaming cost calculated.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { roamingSetup, setRoamingEnabled } from '../../helpers/roaming-factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { startReceiver, until } from '../../helpers/webhook-receiver.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const instance = async () => (await app.request('GET', api('/instance'))).body;

// Serial: every test reads or writes the one instance row.
test.serial('switching roaming on and off changes GET /instance; the first update creates the settings row; each change is an event', async (t) => {
  const before = await instance();
  t.like(before, { name: 'unnamed instance', roaming_enabled: false });
  t.truthy(before.product_version);

  const on = await app.request('POST', api('/instance'), { body: { roaming_enabled: true } });
  t.is(on.status, 200);
  t.deepEqual(on.body, { ...before, roaming_enabled: true });
  t.deepEqual(await instance(), on.body);

  const renamed = await app.request('POST', api('/instance'), { body: { name: 'Charging Group' } });
  t.deepEqual(renamed.body, { ...before, name: 'Charging Group', roaming_enabled: true }, 'merge-update: roaming_enabled kept');
  const off = await app.request('POST', api('/instance'), { body: { roaming_enabled: false } });
  t.deepEqual(off.body, { ...before, name: 'Charging Group', roaming_enabled: false });
  t.deepEqual(await instance(), off.body);
  const same = await app.request('POST', api('/instance'), { body: {} });
  t.deepEqual(same.body, off.body);

  const events = (await app.request('GET', api('/event?kind=instance'))).body.items;
  t.deepEqual(events.map((e: any) => [e.modification_kind, e.resource_id, e.admin_id, e.changes]), [
    ['create', 'instance', null, null],
    ['update', 'instance', null, { name: ['unnamed instance', 'Charging Group'] }],
    ['update', 'instance', null, { roamingEnabled: [true, false] }],
  ], 'an update that changes nothing records nothing');
  t.is(events[0].actor, app.admin.publicId);
});

test.serial('bad input is 400 with param and changes nothing; unknown members are named in X-SVC-Unknown-Fields', async (t) => {
  await app.request('POST', api('/instance'), { body: { name: 'Before', roaming_enabled: true } });
  const stored = await instance();
  const cases: [unknown, string, string][] = [
    [{ roaming_enabled: 'yes', name: 'Changed' }, 'validation_failed', '$.roaming_enabled'],
    [{ roaming_enabled: 1 }, 'validation_failed', '$.roaming_enabled'],
    [{ roaming_enabled: null, name: 'Changed' }, 'invalid_input', '$.roaming_enabled'],
    [{ name: 'x'.repeat(256), roaming_enabled: false }, 'validation_failed', '$.name'],
    [{ name: null }, 'invalid_input', '$.name'],
    [{ name: '  ', roaming_enabled: false }, 'invalid_input', '$.name'],
    [{ name: 42 }, 'validation_failed', '$.name'],
  ];
  for (const [body, code, param] of cases) {
    const r = await app.request('POST', api('/instance'), { body });
    t.is(r.status, 400, JSON.stringify(body));
    const place = r.body.param ?? r.body.details?.[0]?.param;
    t.is(r.body.code, code, JSON.stringify(body));
    t.is(place, param, JSON.stringify(body));
  }
  const notObject = await app.request('POST', api('/instance'), { body: [true] });
  t.is(notObject.status, 400);
  t.deepEqual(await instance(), stored, 'nothing changed');

  const unknown = await app.request('POST', api('/instance'), { body: { roaming_enabled: false, product_version: '9.9.9', colour: 'red' } });
  t.is(unknown.status, 200);
  t.regex(unknown.headers.get('x-svc-unknown-fields') ?? '', /\$\.product_version.*\$\.colour|\$\.colour.*\$\.product_version/);
  t.deepEqual(unknown.body, { ...stored, roaming_enabled: false }, 'unknown members are ignored');
});

test.serial('only a credential without an administration limit may change it: a limited or readonly one gets 403 and nothing changes', async (t) => {
  const unlimited = await app.request('POST', api('/instance'), { body: { roaming_enabled: true } });
  t.is(unlimited.status, 200);
  const limited = await app.credential({ role: 'admin', adminIds: [(await createAdministration(app)).id] });
  const byLimited = await app.request('POST', api('/instance'), { body: { roaming_enabled: false, name: 'Limited' }, auth: limited });
  t.is(byLimited.status, 403);
  t.is(byLimited.body.code, 'forbidden');
  t.like(await instance(), { roaming_enabled: true, name: unlimited.body.name }, 'nothing changed');
  t.is((await app.request('GET', api('/instance'), { auth: limited })).status, 200, 'it still reads it');
  const readonly = await app.credential({ role: 'readonly' });
  const refused = await app.request('POST', api('/instance'), { body: { roaming_enabled: false }, auth: readonly });
  t.is(refused.status, 403);
  t.true((await instance()).roaming_enabled, 'nothing changed');
  const unauthenticated = await app.request('POST', api('/instance'), { body: { roaming_enabled: false }, auth: null });
  t.is(unauthenticated.status, 401);
});

test.serial('switched on through the API a roaming partner\'s session gets its roaming cost calculated; switched off it does not', async (t) => {
  const admin = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, admin);
  const { agreement, cpoId } = await roamingSetup(app);
  const roamingSession = async () => processed(app, (await submitSession(app, sessionBody(evcoId, { cpo_id: cpoId, total_roaming_amount_excl_vat: '3' }))).id);

  await setRoamingEnabled(app, true);
  t.like(await roamingSession(), {
    status: 'priced', roaming_agreement_id: agreement.id, calculated_roaming_amount_excl_vat: '3.00', calculated_roaming_amount_incl_vat: '3.63',
  });

  await setRoamingEnabled(app, false);
  t.like(await roamingSession(), {
    status: 'priced', roaming_agreement_id: null, calculated_roaming_amount_excl_vat: null, calculated_roaming_amount_incl_vat: null,
    total_roaming_amount_excl_vat: '3.00',
  });
});

test.serial('a change is delivered to an all-administration subscription of kind instance with what GET /instance answers', async (t) => {
  const receiver = await startReceiver();
  try {
    const subscription = await app.request('POST', api('/webhook-subscription'), {
      body: { url: `${receiver.url}/instance`, kinds: ['instance'], secret: 'whsec-instance-0123456789' },
    });
    t.is(subscription.status, 200, JSON.stringify(subscription.body));
    const changed = await app.request('POST', api('/instance'), { body: { name: 'Delivered Group' } });
    await until(() => receiver.on('/instance').length >= 1, 'the instance event');
    const [delivery] = receiver.on('/instance');
    t.like(delivery.body, { kind: 'instance', modification_kind: 'update' });
    t.deepEqual(delivery.body.data, changed.body);
  } finally {
    await receiver.close();
  }
});
