import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { RoamingPartner } from '../../../src/parties/roaming-partner.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const MISSING_ID = '0190f5d2-0000-7000-8000-000000000000';
let n = 0;
const ref = () => `BA-${++n}`;

async function createAddress(customer: { id: string }, fields: Record<string, unknown> = {}) {
  const response = await app.request('POST', `/main/v1/billing-address/ext_ref.${ref()}`, {
    body: { customer_id: customer.id, addressee: 'Ada Lovelace', city: 'Utrecht', country: 'NL', ...fields },
  });
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

test('ext_ref upsert creates the address, then merge-updates it', async (t) => {
  const customer = await createCustomer(app, adminId);
  const created = await app.request('POST', '/main/v1/billing-address/ext_ref.Addr-1', {
    body: {
      customer_external_reference: customer.external_reference, addressee: 'Ada', address_line1: 'Main St 1', postal_code: '3511 AB',
      city: 'Utrecht', region: 'UT', country: 'nl', billing_phone: '+31 30 123 4567', external_reference: 'ignored-in-favour-of-path',
    },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.regex(created.body.id, /^[0-9a-f-]{36}$/);
  t.like(created.body, {
    customer_id: customer.id, customer_external_reference: customer.external_reference, admin_id: adminId,
    addressee: 'Ada', address_line1: 'Main St 1', address_line2: null, country: 'NL', external_reference: 'Addr-1',
  });
  t.regex(created.body.created_at, /Z$/);

  const updated = await app.request('POST', '/main/v1/billing-address/ext_ref.addr-1', { body: { address_line2: 'Floor 2', region: null } });
  t.is(updated.status, 200);
  t.is(updated.body.id, created.body.id, 'the reference is matched case-insensitively');
  t.like(updated.body, { address_line1: 'Main St 1', address_line2: 'Floor 2', region: null, external_reference: 'Addr-1' });

  const byId = await app.request('GET', `/main/v1/billing-address/${created.body.id}`);
  t.deepEqual(byId.body, updated.body);
  const byRef = await app.request('GET', '/main/v1/billing-address/ext_ref.ADDR-1');
  t.is(byRef.body.id, created.body.id);
});

test('creating needs exactly one of customer_id and customer_external_reference (older names of the party members)', async (t) => {
  const customer = await createCustomer(app, adminId);
  const neither = await app.request('POST', '/main/v1/billing-address/ext_ref.no-customer', { body: { city: 'Utrecht' } });
  t.is(neither.status, 400);
  t.is(neither.body.param, '$.party_id');
  const both = await app.request('POST', '/main/v1/billing-address/ext_ref.two-customers', {
    body: { customer_id: customer.id, customer_external_reference: customer.external_reference },
  });
  t.is(both.status, 400);
  t.is(both.body.param, '$.customer_id');
  const unknownRef = await app.request('POST', '/main/v1/billing-address/ext_ref.ghost', { body: { customer_external_reference: 'nobody' } });
  t.is(unknownRef.body.code, 'not_found');
  t.is(unknownRef.body.param, '$.customer_external_reference');
  const badId = await app.request('POST', '/main/v1/billing-address/ext_ref.ghost', { body: { customer_id: 'not-a-uuid' } });
  t.is(badId.body.code, 'not_found');
  t.is(badId.body.param, '$.customer_id');
  for (const path of ['no-customer', 'two-customers', 'ghost']) {
    t.is((await app.request('GET', `/main/v1/billing-address/ext_ref.${path}`)).body.code, 'not_found');
  }
});

test('the customer is immutable: its references are ignored on update', async (t) => {
  const customer = await createCustomer(app, adminId);
  const other = await createCustomer(app, adminId);
  const address = await createAddress(customer);
  const moved = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { customer_id: other.id, city: 'Delft' } });
  t.is(moved.status, 200);
  t.is(moved.body.customer_id, customer.id);
  t.is(moved.body.city, 'Delft');
});

test('POST on an id that does not exist creates nothing', async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('POST', `/main/v1/billing-address/${MISSING_ID}`, { body: { customer_id: customer.id, city: 'x' } });
  t.is(response.status, 400);
  t.is(response.body.code, 'not_found');
  const list = await app.request('GET', `/main/v1/customer/${customer.id}/billing-address`);
  t.deepEqual(list.body.items, []);
  t.is((await app.request('GET', '/main/v1/billing-address/garbage')).body.code, 'not_found');
});

test('billing_phone is free text of at most 40 characters', async (t) => {
  const customer = await createCustomer(app, adminId);
  const address = await createAddress(customer);
  const forty = 'call me maybe: +31 (0)30 - 123 456 7 ext';
  t.is(forty.length, 40);
  const ok = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { billing_phone: forty } });
  t.is(ok.status, 200);
  t.is(ok.body.billing_phone, forty);
  const tooLong = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { billing_phone: `${forty}1` } });
  t.is(tooLong.status, 400);
  t.is(tooLong.body.param, '$.billing_phone');
  t.is((await app.request('GET', `/main/v1/billing-address/${address.id}`)).body.billing_phone, forty);
});

test('wrong types are 400 with a param; unknown fields are listed in X-SVC-Unknown-Fields', async (t) => {
  const customer = await createCustomer(app, adminId);
  const address = await createAddress(customer);
  const wrongType = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { city: 12 } });
  t.is(wrongType.status, 400);
  t.is(wrongType.body.param, '$.city');
  const badCountry = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { country: 'NLD' } });
  t.is(badCountry.body.param, '$.country');
  const badDate = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { external_updated_at: 'yesterday' } });
  t.is(badDate.body.param, '$.external_updated_at');
  const unknown = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { city: 'Gouda', street: 'x', admin_id: 'y' } });
  t.is(unknown.status, 200);
  t.is(unknown.headers.get('x-svc-unknown-fields'), '$.street,$.admin_id');
  t.is(unknown.body.city, 'Gouda');
  t.is(unknown.body.admin_id, adminId);
});

test('an older external_updated_at is ignored', async (t) => {
  const customer = await createCustomer(app, adminId);
  const address = await createAddress(customer, { external_updated_at: '2026-01-02T10:00:00+01:00' });
  t.is(address.external_updated_at, '2026-01-02T09:00:00.000Z');
  const stale = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { city: 'Stale', external_updated_at: '2026-01-01T00:00:00Z' } });
  t.is(stale.status, 200);
  t.is(stale.body.city, address.city);
  t.is(stale.body.external_updated_at, '2026-01-02T09:00:00.000Z');
  const stalePut = await app.request('PUT', `/main/v1/billing-address/${address.id}`, { body: { external_updated_at: '2025-12-31T00:00:00Z' } });
  t.is(stalePut.body.city, address.city);
  const fresh = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { city: 'Fresh', external_updated_at: '2026-01-03T00:00:00Z' } });
  t.is(fresh.body.city, 'Fresh');
  t.is(fresh.body.external_updated_at, '2026-01-03T00:00:00.000Z');
});

test('deprecated PUT resets omitted fields and can create on ext_ref', async (t) => {
  const customer = await createCustomer(app, adminId);
  const address = await createAddress(customer, { address_line1: 'Main St 1', billing_phone: '123' });
  const replaced = await app.request('PUT', `/main/v1/billing-address/${address.id}`, { body: { city: 'Leiden' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { city: 'Leiden', addressee: null, address_line1: null, billing_phone: null, country: null, customer_id: customer.id });
  const created = await app.request('PUT', '/main/v1/billing-address/ext_ref.put-created', { body: { customer_id: customer.id, city: 'Ede' } });
  t.is(created.status, 200);
  t.is(created.body.external_reference, 'put-created');
});

test('an external_reference is unique in the instance', async (t) => {
  const customer = await createCustomer(app, adminId);
  const first = await app.request('POST', '/main/v1/billing-address/ext_ref.unique-1', { body: { customer_id: customer.id } });
  const second = await createAddress(customer);
  const clash = await app.request('POST', `/main/v1/billing-address/${second.id}`, { body: { external_reference: 'UNIQUE-1' } });
  t.is(first.status, 200);
  t.is(clash.status, 400);
  t.is(clash.body.param, '$.external_reference');
});

test('a customer of another administration is not found', async (t) => {
  const customer = await createCustomer(app, adminId);
  const address = await createAddress(customer);
  const other = await createAdministration(app);
  const scoped = await app.credential({ adminIds: [other.id] });
  const create = await app.request('POST', '/main/v1/billing-address/ext_ref.sneaky', { body: { customer_id: customer.id }, auth: scoped });
  t.is(create.status, 400);
  t.is(create.body.code, 'not_found');
  t.is(create.body.param, '$.customer_id');
  const byRef = await app.request('POST', '/main/v1/billing-address/ext_ref.sneaky', { body: { customer_external_reference: customer.external_reference }, auth: scoped });
  t.is(byRef.body.code, 'not_found');
  const get = await app.request('GET', `/main/v1/billing-address/${address.id}`, { auth: scoped });
  t.is(get.body.code, 'not_found');
  const update = await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { city: 'Hijack' }, auth: scoped });
  t.is(update.body.code, 'not_found');
  const list = await app.request('GET', `/main/v1/customer/${customer.id}/billing-address`, { auth: scoped });
  t.is(list.body.code, 'not_found');
  t.is((await app.request('GET', `/main/v1/billing-address/${address.id}`)).body.city, address.city);
});

test("GET /customer/{id}/billing-address pages the customer's addresses", async (t) => {
  const customer = await createCustomer(app, adminId);
  const other = await createCustomer(app, adminId);
  const a = await createAddress(customer);
  const b = await createAddress(customer);
  const c = await createAddress(customer);
  await createAddress(other);
  const first = await app.request('GET', `/main/v1/customer/ext_ref.${customer.external_reference}/billing-address?page_size=2`);
  t.is(first.status, 200);
  t.deepEqual(first.body.items.map((i: any) => i.id), [a.id, b.id]);
  t.is(first.body.page_size, 2);
  t.truthy(first.body.link_next);
  t.is(first.headers.get('link'), `<${first.body.link_next}>; rel="next"`);
  const second = await app.request('GET', first.body.link_next);
  t.deepEqual(second.body.items.map((i: any) => i.id), [c.id]);
  t.is(second.body.link_next, undefined);
  const missing = await app.request('GET', `/main/v1/customer/${MISSING_ID}/billing-address`);
  t.is(missing.body.code, 'not_found');
});

// The public integration guide creates a customer's billing address by naming the party.
test("the guide's example: a billing address created with party_id", async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('POST', '/main/v1/billing-address/ext_ref.guide-party-id', {
    body: { party_id: customer.id, addressee: 'Ada Lovelace', address_line1: 'Main St 1', postal_code: '3511 AB', city: 'Utrecht', country: 'NL' },
  });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.headers.get('x-svc-unknown-fields'), null);
  t.like(response.body, {
    party_id: customer.id, party_external_reference: customer.external_reference, customer_id: customer.id,
    admin_id: adminId, addressee: 'Ada Lovelace', external_reference: 'guide-party-id',
  });
  t.regex(response.body.created_at, /Z$/);
  t.regex(response.body.updated_at, /Z$/);
  t.is((await app.request('GET', '/main/v1/billing-address/ext_ref.guide-party-id')).body.id, response.body.id);
});

test("the guide's example: a billing address created with party_external_reference", async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('POST', '/main/v1/billing-address/ext_ref.guide-party-ref', {
    body: { party_external_reference: customer.external_reference.toUpperCase(), addressee: 'Ada', city: 'Utrecht', country: 'NL' },
  });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.like(response.body, { party_id: customer.id, customer_id: customer.id, party_external_reference: customer.external_reference });
  const list = await app.request('GET', `/main/v1/customer/${customer.id}/billing-address`);
  t.deepEqual(list.body.items.map((a: any) => a.id), [response.body.id]);
});

test('exactly one party member: both, none or an old and a new name are 400 and create nothing', async (t) => {
  const customer = await createCustomer(app, adminId);
  const cases: [Record<string, unknown>, string][] = [
    [{ party_id: customer.id, party_external_reference: customer.external_reference }, '$.party_id'],
    [{}, '$.party_id'],
    [{ party_id: null, party_external_reference: null }, '$.party_id'],
    [{ party_id: customer.id, customer_id: customer.id }, '$.party_id'],
    [{ party_external_reference: customer.external_reference, customer_id: customer.id }, '$.party_external_reference'],
  ];
  for (const [i, [members, param]] of cases.entries()) {
    const response = await app.request('POST', `/main/v1/billing-address/ext_ref.one-party-${i}`, { body: { ...members, city: 'Ede' } });
    t.is(response.status, 400, JSON.stringify(members));
    t.is(response.body.code, 'invalid_input');
    t.is(response.body.param, param, JSON.stringify(members));
    t.is((await app.request('GET', `/main/v1/billing-address/ext_ref.one-party-${i}`)).body.code, 'not_found');
  }
  const unknown = await app.request('POST', '/main/v1/billing-address/ext_ref.one-party-x', { body: { party_external_reference: 'nobody' } });
  t.is(unknown.body.code, 'not_found');
  t.is(unknown.body.param, '$.party_external_reference');
  t.deepEqual((await app.request('GET', `/main/v1/customer/${customer.id}/billing-address`)).body.items, []);
});

test('a roaming partner as party is refused: billing addresses belong to customers', async (t) => {
  const em = scopedEm(app.orm);
  const partner = em.create(RoamingPartner, { name: 'Roamer', country: 'NL', externalReference: 'roamer-1' } as never);
  await em.flush();
  const byId = await app.request('POST', '/main/v1/billing-address/ext_ref.roamer-address', { body: { party_id: partner.id } });
  t.is(byId.status, 400);
  t.is(byId.body.param, '$.party_id');
  t.regex(byId.body.message, /roaming partner/);
  const byRef = await app.request('POST', '/main/v1/billing-address/ext_ref.roamer-address', { body: { party_external_reference: 'ROAMER-1' } });
  t.is(byRef.body.param, '$.party_external_reference');
  t.is((await app.request('GET', '/main/v1/billing-address/ext_ref.roamer-address')).body.code, 'not_found');
});

test('on update the party members are ignored when they name a visible party', async (t) => {
  const customer = await createCustomer(app, adminId);
  const other = await createCustomer(app, adminId);
  const address = await createAddress(customer);
  const moved = await app.request('POST', `/main/v1/billing-address/${address.id}`, {
    body: { party_id: other.id, party_external_reference: other.external_reference, city: 'Delft' },
  });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.like(moved.body, { party_id: customer.id, customer_id: customer.id, city: 'Delft' });
});

test('the same ext_ref upsert sent ten times at once stores one address; every request answers 200 with it', async (t) => {
  const customer = await createCustomer(app, adminId);
  const reference = `BA-at-once-${Date.now()}`;
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('POST', `/main/v1/billing-address/ext_ref.${reference}`, {
    body: { customer_id: customer.id, addressee: 'Ada', city: 'Utrecht' },
  })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1, 'all answer the one address');
  t.like(answers[0].body, { customer_id: customer.id, addressee: 'Ada', city: 'Utrecht', external_reference: reference });
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from billing_address where external_reference = ?', [reference]);
  t.is(n, 1);
});

test('an ext_ref upsert on a reference an address of another administration holds is 400 duplicate, nothing stored', async (t) => {
  const holder = await createAddress(await createCustomer(app, adminId));
  const other = (await createAdministration(app)).id;
  const scoped = await app.credential({ adminIds: [other] });
  const otherCustomer = await createCustomer(app, other);
  const taken = await app.request('POST', `/main/v1/billing-address/ext_ref.${holder.external_reference}`, { body: { party_id: otherCustomer.id, city: 'Breda' }, auth: scoped });
  t.like({ status: taken.status, ...taken.body }, { status: 400, code: 'duplicate', param: '$.external_reference' });
  t.is((await app.request('GET', `/main/v1/customer/${otherCustomer.id}/billing-address`)).body.items.length, 0);
});

test('an addressee of spaces names no one: 400 at $.addressee, nothing stored (found by probing: its invoice named no buyer)', async (t) => {
  const customer = await createCustomer(app, adminId);
  const blank = await app.request('POST', '/main/v1/billing-address/ext_ref.BLANK-ADDR', { body: { customer_id: customer.id, addressee: '  ', city: 'Utrecht', country: 'NL' } });
  t.like(blank, { status: 400, body: { code: 'invalid_input', param: '$.addressee' } });
  t.like(await app.request('GET', '/main/v1/billing-address/ext_ref.BLANK-ADDR'), { status: 400, body: { code: 'not_found' } });
  const address = await createAddress(customer);
  t.like(await app.request('POST', `/main/v1/billing-address/${address.id}`, { body: { addressee: ' ' } }), { status: 400, body: { param: '$.addressee' } });
  t.is((await app.request('GET', `/main/v1/billing-address/${address.id}`)).body.addressee, 'Ada Lovelace');
});

test('addresses renamed to one new external_reference at once: one 200, the others 400 duplicate (found by probing: 500)', async (t) => {
  for (let round = 0; round < 5; round++) {
    const customer = await createCustomer(app, adminId);
    const addresses = [];
    for (let i = 0; i < 4; i++) addresses.push(await createAddress(customer));
    const reference = `BA-rename-at-once-${round}-${Date.now()}`;
    const answers = await Promise.all(addresses.map((address) => app.request('POST', `/main/v1/billing-address/${address.id}`, {
      body: { external_reference: reference },
    })));
    t.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400], `round ${round}: ${JSON.stringify(answers.map((a) => a.body))}`);
    for (const lost of answers.filter((a) => a.status === 400)) t.like(lost.body, { code: 'duplicate', param: '$.external_reference' });
    const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from billing_address where external_reference = ?', [reference]);
    t.is(n, 1);
  }
});

test('an ext_ref path of more than 255 characters is 400, nothing stored (found by probing: stored)', async (t) => {
  const customer = await createCustomer(app, adminId);
  for (const length of [256, 900]) {
    const answer = await app.request('POST', `/main/v1/billing-address/ext_ref.${'B'.repeat(length)}`, { body: { party_id: customer.id, addressee: 'A' } });
    t.like(answer, { status: 400, body: { code: 'invalid_path' } }, `${length}`);
  }
  t.is((await app.request('GET', `/main/v1/customer/${customer.id}/billing-address`)).body.items.length, 0);
  t.like(await app.request('POST', `/main/v1/billing-address/ext_ref.${'B'.repeat(255)}`, { body: { party_id: customer.id, addressee: 'A' } }),
    { status: 200 }, '255 characters are a reference');
});
