import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const MISSING_ID = '0190f5d2-0000-7000-8000-000000000000';
const IBAN = 'NL91ABNA0417164300';

async function createMandate(customer: { id: string }, fields: Record<string, unknown> = {}) {
  const response = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'A. Lovelace', iban: IBAN, ...fields },
  });
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function mandatesOf(customer: { id: string }) {
  const list = await app.request('GET', `/main/v1/customer/${customer.id}/direct-debit-mandate`);
  return list.body.items as any[];
}

test('create normalizes IBAN and BIC, defaults valid_from to now; GET by id and ext_ref', async (t) => {
  const customer = await createCustomer(app, adminId);
  const before = Date.now();
  const created = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: {
      customer_external_reference: customer.external_reference, bank_account_name: 'A. Lovelace', iban: 'nl91 abna 0417 1643 00',
      bic: 'abnanl2a', mandate_reference: 'MR-1', signed_at: '2026-01-01T12:00:00+01:00', external_reference: 'DDM-1',
      invalidate_overlapping_mandate: false,
    },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    customer_id: customer.id, customer_external_reference: customer.external_reference, admin_id: adminId,
    bank_account_name: 'A. Lovelace', iban: IBAN, bic: 'ABNANL2A', mandate_reference: 'MR-1', signed_at: '2026-01-01T11:00:00.000Z',
    valid_until: null, defunct: false, external_reference: 'DDM-1', external_updated_at: null,
  });
  t.false('invalidate_overlapping_mandate' in created.body, 'not stored');
  const validFrom = Date.parse(created.body.valid_from);
  t.true(validFrom >= before - 1 && validFrom <= Date.now());

  const byId = await app.request('GET', `/main/v1/direct-debit-mandate/${created.body.id}`);
  t.deepEqual(byId.body, created.body);
  const byRef = await app.request('GET', '/main/v1/direct-debit-mandate/ext_ref.ddm-1');
  t.is(byRef.body.id, created.body.id);
  t.is((await app.request('GET', `/main/v1/billing-direct-debit-mandate/${created.body.id}`)).status, 405);
});

test('bad IBANs and BICs are 400 naming the field; every failure is listed', async (t) => {
  const customer = await createCustomer(app, adminId);
  const post = (body: Record<string, unknown>) => app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN, ...body },
  });
  for (const iban of ['NL92ABNA0417164300', 'NL91ABNA041716430', 'XX91ABNA0417164300', 'NL91-ABNA-0417-1643-00']) {
    const response = await post({ iban });
    t.is(response.status, 400, iban);
    t.is(response.body.param, '$.iban', iban);
  }
  for (const bic of ['', 'ABNANL2', 'ABNANL2AXY', 'ABNAQQ2A', '1BNANL2A', 'ABNA NL2']) {
    const response = await post({ bic });
    t.is(response.status, 400, bic);
    t.is(response.body.param, '$.bic', bic);
  }
  const both = await post({ iban: 'NL00ABNA0417164300', bic: 'nope' });
  t.deepEqual(both.body.details.map((d: any) => d.param), ['$.iban', '$.bic']);
  const missing = await app.request('POST', '/main/v1/billing-direct-debit-mandate', { body: { customer_id: customer.id } });
  t.is(missing.status, 400);
  t.deepEqual(missing.body.details.map((d: any) => d.param), ['$.bank_account_name', '$.iban']);
  const empty = await post({ bank_account_name: '', iban: '' });
  t.deepEqual(empty.body.details.map((d: any) => d.param), ['$.bank_account_name', '$.iban']);
  t.deepEqual(await mandatesOf(customer), []);
});

test('wrong types are 400 with a param; unknown fields are listed in X-SVC-Unknown-Fields', async (t) => {
  const customer = await createCustomer(app, adminId);
  const post = (body: Record<string, unknown>) => app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN, ...body },
  });
  for (const [field, value] of [['iban', 123], ['bank_account_name', true], ['defunct', 'yes'], ['valid_from', 'tomorrow'],
    ['invalidate_overlapping_mandate', 1], ['customer_id', 5]] as const) {
    const response = await post({ [field]: value });
    t.is(response.status, 400, field);
    t.is(response.body.param, `$.${field}`, field);
  }
  t.deepEqual(await mandatesOf(customer), []);
  const unknown = await post({ account_holder: 'x', admin_id: 'y' });
  t.is(unknown.status, 200);
  t.is(unknown.headers.get('x-svc-unknown-fields'), '$.account_holder,$.admin_id');
});

test('exactly one of customer_id and customer_external_reference', async (t) => {
  const customer = await createCustomer(app, adminId);
  const base = { bank_account_name: 'X', iban: IBAN };
  const neither = await app.request('POST', '/main/v1/billing-direct-debit-mandate', { body: base });
  t.is(neither.status, 400);
  t.is(neither.body.param, '$.customer_id');
  const both = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { ...base, customer_id: customer.id, customer_external_reference: customer.external_reference },
  });
  t.is(both.status, 400);
  t.is(both.body.param, '$.customer_id');
  const upsertNeither = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.no-customer', { body: base });
  t.is(upsertNeither.body.param, '$.customer_id');
  t.deepEqual(await mandatesOf(customer), []);
});

test('valid_until must be after valid_from', async (t) => {
  const customer = await createCustomer(app, adminId);
  const equal = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN, valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-01-01T01:00:00+01:00' },
  });
  t.is(equal.status, 400);
  t.is(equal.body.param, '$.valid_until');
  const mandate = await createMandate(customer, { valid_from: '2026-01-01T00:00:00Z' });
  const earlier = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { valid_until: '2025-12-31T00:00:00Z' } });
  t.is(earlier.body.param, '$.valid_until');
  const cleared = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { iban: null } });
  t.is(cleared.status, 400);
  t.is(cleared.body.param, '$.iban');
});

test('ext_ref upsert creates, then merge-updates keeping absent fields; POST on a missing id creates nothing', async (t) => {
  const customer = await createCustomer(app, adminId);
  const created = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.M-100', {
    body: { customer_id: customer.id, bank_account_name: 'Ada', iban: 'DE89 3704 0044 0532 0130 00', bic: 'DEUTDEFF500', valid_from: '2026-01-01T00:00:00Z' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, { external_reference: 'M-100', iban: 'DE89370400440532013000', bic: 'DEUTDEFF500' });
  const updated = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.m-100', {
    body: { bank_account_name: 'Ada L.', bic: null, customer_id: customer.id, external_updated_at: '2026-02-01T00:00:00Z' },
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, {
    id: created.body.id, bank_account_name: 'Ada L.', bic: null, iban: 'DE89370400440532013000', customer_id: customer.id,
    valid_from: '2026-01-01T00:00:00.000Z', external_reference: 'M-100', external_updated_at: '2026-02-01T00:00:00.000Z',
  });
  // The customer is immutable, but a body naming one that does not exist is still not_found.
  const ghost = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.m-100', { body: { customer_id: MISSING_ID, bank_account_name: 'Ghost' } });
  t.is(ghost.status, 400);
  t.is(ghost.body.param, '$.customer_id');
  t.is((await app.request('GET', `/main/v1/direct-debit-mandate/${created.body.id}`)).body.bank_account_name, 'Ada L.');

  const missing = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${MISSING_ID}`, {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN },
  });
  t.is(missing.status, 400);
  t.is(missing.body.code, 'not_found');
  const put = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${MISSING_ID}`, {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN },
  });
  t.is(put.body.code, 'not_found');
  t.deepEqual((await mandatesOf(customer)).map((m) => m.id), [created.body.id]);
});

test('an overlapping mandate is refused; adjacent ones are fine', async (t) => {
  const customer = await createCustomer(app, adminId);
  const a = await createMandate(customer, { valid_from: '2026-01-01T00:00:00Z' });
  const overlapping = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'B', iban: IBAN, valid_from: '2026-06-01T00:00:00Z' },
  });
  t.is(overlapping.status, 400);
  t.is(overlapping.body.code, 'overlapping_mandate');
  t.is(overlapping.body.param, '$.valid_from');
  const upsert = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.overlap-1', {
    body: { customer_id: customer.id, bank_account_name: 'B', iban: IBAN, valid_from: '2025-06-01T00:00:00Z' },
  });
  t.is(upsert.body.code, 'overlapping_mandate');
  const adjacent = await createMandate(customer, { valid_from: '2025-01-01T00:00:00Z', valid_until: '2026-01-01T00:00:00Z' });
  t.deepEqual((await mandatesOf(customer)).map((m) => m.id), [a.id, adjacent.id]);

  const moved = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${adjacent.id}`, {
    body: { valid_until: '2026-02-01T00:00:00Z', invalidate_overlapping_mandate: true },
  });
  t.is(moved.status, 400, 'merge-update does not honour invalidate_overlapping_mandate');
  t.is(moved.body.code, 'overlapping_mandate');
  const otherCustomer = await createCustomer(app, adminId);
  await t.notThrowsAsync(createMandate(otherCustomer, { valid_from: '2026-06-01T00:00:00Z' }), 'per customer');
});

test('invalidate_overlapping_mandate ends or defuncts the overlapping mandates in one go', async (t) => {
  const customer = await createCustomer(app, adminId);
  const a = await createMandate(customer, { valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-03-01T00:00:00Z' });
  const b = await createMandate(customer, { valid_from: '2026-03-01T00:00:00Z' });
  const old = await createMandate(customer, { valid_from: '2025-01-01T00:00:00Z', valid_until: '2025-06-01T00:00:00Z' });
  const c = await createMandate(customer, { bank_account_name: 'New', valid_from: '2026-02-01T00:00:00Z', invalidate_overlapping_mandate: true });
  const byId = Object.fromEntries((await mandatesOf(customer)).map((m) => [m.id, m]));
  t.like(byId[a.id], { valid_until: '2026-02-01T00:00:00.000Z', defunct: false });
  t.like(byId[b.id], { valid_from: '2026-03-01T00:00:00.000Z', valid_until: null, defunct: true });
  t.like(byId[old.id], { valid_until: '2025-06-01T00:00:00.000Z', defunct: false });
  t.like(byId[c.id], { valid_from: '2026-02-01T00:00:00.000Z', valid_until: null, defunct: false });

  // Replace (PUT) honours the flag too: c moves back and a yields to it.
  const replaced = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${c.id}`, {
    body: { bank_account_name: 'New', iban: IBAN, valid_from: '2026-01-15T00:00:00Z', invalidate_overlapping_mandate: true },
  });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  const after = Object.fromEntries((await mandatesOf(customer)).map((m) => [m.id, m]));
  t.is(after[a.id].valid_until, '2026-01-15T00:00:00.000Z');
  t.is(after[c.id].valid_from, '2026-01-15T00:00:00.000Z');
});

test('a failed invalidation changes nothing', async (t) => {
  const customer = await createCustomer(app, adminId);
  const a = await createMandate(customer, { valid_from: '2026-01-01T00:00:00Z' });
  const failed = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: 'NL00ABNA0417164300', valid_from: '2026-02-01T00:00:00Z', invalidate_overlapping_mandate: true },
  });
  t.is(failed.status, 400);
  const [only] = await mandatesOf(customer);
  t.like(only, { id: a.id, valid_until: null, defunct: false });
});

test('deprecated PUT resets omitted fields; valid_from to now', async (t) => {
  const customer = await createCustomer(app, adminId);
  const mandate = await createMandate(customer, { bic: 'ABNANL2A', mandate_reference: 'MR', valid_from: '2026-01-01T00:00:00Z', external_reference: 'put-1' });
  const before = Date.now();
  const replaced = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { bank_account_name: 'Y', iban: 'BE68539007547034' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { bank_account_name: 'Y', iban: 'BE68539007547034', bic: null, mandate_reference: null, external_reference: null, defunct: false });
  t.true(Date.parse(replaced.body.valid_from) >= before - 1);
  const incomplete = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { bank_account_name: 'Y' } });
  t.is(incomplete.status, 400);
  t.is(incomplete.body.param, '$.iban');
});

test('defunct: marked once, never revived, no longer changed, no longer overlapping', async (t) => {
  const customer = await createCustomer(app, adminId);
  const mandate = await createMandate(customer, { valid_from: '2026-01-01T00:00:00Z', external_reference: 'defunct-1' });
  const marked = await app.request('PUT', '/main/v1/billing-direct-debit-mandate/ext_ref.defunct-1/defunct', {
    body: { external_updated_at: '2026-05-01T00:00:00Z' },
  });
  t.is(marked.status, 200, JSON.stringify(marked.body));
  t.like(marked.body, { id: mandate.id, defunct: true, external_updated_at: '2026-05-01T00:00:00.000Z', valid_until: null });
  const again = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${mandate.id}/defunct`);
  t.is(again.status, 200, 'idempotent, body optional');
  t.true(again.body.defunct);

  const revive = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { defunct: false } });
  t.is(revive.status, 400);
  t.is(revive.body.code, 'mandate_defunct');
  t.is(revive.body.param, '$.defunct');
  const change = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, { body: { bank_account_name: 'Other' } });
  t.is(change.body.code, 'mandate_defunct');
  t.is(change.body.param, '$.bank_account_name');
  const noop = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, {
    body: { bank_account_name: mandate.bank_account_name, defunct: true, external_updated_at: '2026-06-01T00:00:00Z' },
  });
  t.is(noop.status, 200);
  t.is(noop.body.external_updated_at, '2026-06-01T00:00:00.000Z');
  t.is(noop.body.bank_account_name, mandate.bank_account_name);

  const successor = await createMandate(customer, { valid_from: '2026-02-01T00:00:00Z' });
  t.false(successor.defunct, 'a defunct mandate does not overlap');
  const viaMerge = await app.request('POST', `/main/v1/billing-direct-debit-mandate/${successor.id}`, { body: { defunct: true } });
  t.true(viaMerge.body.defunct);
  const missing = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${MISSING_ID}/defunct`);
  t.is(missing.body.code, 'not_found');
  const wrongType = await app.request('PUT', `/main/v1/billing-direct-debit-mandate/${successor.id}/defunct`, { body: { external_updated_at: 5 } });
  t.is(wrongType.body.param, '$.external_updated_at');
});

test('an external_reference is unique in the instance', async (t) => {
  const customer = await createCustomer(app, adminId);
  await createMandate(customer, { external_reference: 'UNIQ-M', valid_until: '2020-01-01T00:00:00Z', valid_from: '2019-01-01T00:00:00Z' });
  const clash = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN, external_reference: 'uniq-m' },
  });
  t.is(clash.status, 400);
  t.is(clash.body.param, '$.external_reference');
});

test('a customer of another administration is not found', async (t) => {
  const customer = await createCustomer(app, adminId);
  const mandate = await createMandate(customer);
  const other = await createAdministration(app);
  const scoped = await app.credential({ adminIds: [other.id] });
  const create = await app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'X', iban: IBAN, valid_from: '2030-01-01T00:00:00Z' }, auth: scoped,
  });
  t.is(create.status, 400);
  t.is(create.body.code, 'not_found');
  t.is(create.body.param, '$.customer_id');
  const byRef = await app.request('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.sneaky', {
    body: { customer_external_reference: customer.external_reference, bank_account_name: 'X', iban: IBAN }, auth: scoped,
  });
  t.is(byRef.body.param, '$.customer_external_reference');
  for (const [method, path] of [['GET', `/main/v1/direct-debit-mandate/${mandate.id}`], ['POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`],
    ['PUT', `/main/v1/billing-direct-debit-mandate/${mandate.id}/defunct`], ['GET', `/main/v1/customer/${customer.id}/direct-debit-mandate`]]) {
    const response = await app.request(method, path, { auth: scoped, body: method === 'GET' ? undefined : {} });
    t.is(response.status, 400, path);
    t.is(response.body.code, 'not_found', path);
  }
  t.false((await app.request('GET', `/main/v1/direct-debit-mandate/${mandate.id}`)).body.defunct);
});

test("GET /customer/{id}/direct-debit-mandate pages the customer's mandates", async (t) => {
  const customer = await createCustomer(app, adminId);
  const ids = [];
  for (const year of [2020, 2021, 2022]) {
    ids.push((await createMandate(customer, { valid_from: `${year}-01-01T00:00:00Z`, valid_until: `${year}-06-01T00:00:00Z` })).id);
  }
  const first = await app.request('GET', `/main/v1/customer/${customer.id}/direct-debit-mandate?page_size=2`);
  t.deepEqual(first.body.items.map((m: any) => m.id), ids.slice(0, 2));
  const second = await app.request('GET', first.body.link_next);
  t.deepEqual(second.body.items.map((m: any) => m.id), ids.slice(2));
  t.is(second.body.link_next, undefined);
  const badAfter = await app.request('GET', `/main/v1/customer/${customer.id}/direct-debit-mandate?after=nope`);
  t.is(badAfter.body.query_param, 'after');
});

test('concurrent overlapping mandates: exactly one is accepted', async (t) => {
  const customer = await createCustomer(app, adminId);
  const attempts = await Promise.all(Array.from({ length: 6 }, () => app.request('POST', '/main/v1/billing-direct-debit-mandate', {
    body: { customer_id: customer.id, bank_account_name: 'A. Lovelace', iban: IBAN, valid_from: '2026-03-01T00:00:00Z' },
  })));
  t.deepEqual(attempts.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400]);
  t.true(attempts.filter((a) => a.status === 400).every((a) => a.body.code === 'overlapping_mandate'));
  t.is((await mandatesOf(customer)).length, 1);
});

const storedWithReference = async (reference: string) => (await app.orm.em.fork().execute<{ n: number }[]>(
  'select count(*)::int as n from direct_debit_mandate where external_reference = ?', [reference]))[0].n;

test('the same ext_ref upsert sent at once naming different customers stores one mandate; the others merge and answer 200 (found by probing: 500)', async (t) => {
  for (let round = 0; round < 5; round++) {
    const customers = [];
    for (let i = 0; i < 4; i++) customers.push(await createCustomer(app, adminId));
    const reference = `M-at-once-${round}-${Date.now()}`;
    const answers = await Promise.all(customers.map((customer) => app.request('POST', `/main/v1/billing-direct-debit-mandate/ext_ref.${reference}`, {
      body: { customer_id: customer.id, bank_account_name: 'A', iban: IBAN },
    })));
    t.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200], `round ${round}: ${JSON.stringify(answers.map((a) => a.body))}`);
    t.is(new Set(answers.map((a) => a.body.id)).size, 1, 'all answer the one mandate');
    t.true(customers.some((customer) => customer.id === answers[0].body.customer_id));
    t.is(await storedWithReference(reference), 1);
  }
});

test('creates with one body external_reference sent at once: one 200, the others 400 duplicate (found by probing: 500)', async (t) => {
  for (let round = 0; round < 5; round++) {
    const customers = [];
    for (let i = 0; i < 4; i++) customers.push(await createCustomer(app, adminId));
    const reference = `M-body-at-once-${round}-${Date.now()}`;
    const answers = await Promise.all(customers.map((customer) => app.request('POST', '/main/v1/billing-direct-debit-mandate', {
      body: { customer_id: customer.id, bank_account_name: 'A', iban: IBAN, external_reference: reference },
    })));
    t.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400], `round ${round}: ${JSON.stringify(answers.map((a) => a.body))}`);
    for (const lost of answers.filter((a) => a.status === 400)) t.like(lost.body, { code: 'duplicate', param: '$.external_reference' });
    t.is(await storedWithReference(reference), 1);
  }
});

test('mandates renamed to one new external_reference at once: one 200, the others 400 duplicate (found by probing: 500)', async (t) => {
  for (let round = 0; round < 5; round++) {
    const mandates = [];
    for (let i = 0; i < 4; i++) mandates.push(await createMandate(await createCustomer(app, adminId)));
    const reference = `M-rename-at-once-${round}-${Date.now()}`;
    const answers = await Promise.all(mandates.map((mandate) => app.request('POST', `/main/v1/billing-direct-debit-mandate/${mandate.id}`, {
      body: { external_reference: reference },
    })));
    t.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400], `round ${round}: ${JSON.stringify(answers.map((a) => a.body))}`);
    for (const lost of answers.filter((a) => a.status === 400)) t.like(lost.body, { code: 'duplicate', param: '$.external_reference' });
    t.is(await storedWithReference(reference), 1);
  }
});

test('an ext_ref path of more than 255 characters is 400, nothing stored (found by probing: stored)', async (t) => {
  const customer = await createCustomer(app, adminId);
  for (const length of [256, 900]) {
    const answer = await app.request('POST', `/main/v1/billing-direct-debit-mandate/ext_ref.${'M'.repeat(length)}`, {
      body: { customer_id: customer.id, bank_account_name: 'A', iban: IBAN },
    });
    t.like(answer, { status: 400, body: { code: 'invalid_path' } }, `${length}`);
  }
  t.like(await app.request('POST', `/main/v1/billing-direct-debit-mandate/ext_ref.${'M'.repeat(255)}`, {
    body: { customer_id: customer.id, bank_account_name: 'A', iban: IBAN },
  }), { status: 200 }, '255 characters are a reference');
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from direct_debit_mandate where length(external_reference) > 255');
  t.is(n, 0);
});
