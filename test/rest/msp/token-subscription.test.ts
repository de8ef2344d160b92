import test from 'ava';
import { TokenSubscription } from '../../../src/msp/token-subscription.entity.ts';
import { Token } from '../../../src/msp/token.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, insertToken, insertTokenSeries,
} from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const PATH = '/main/v1/msp-token-subscription';
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;

test('create by ids, read it back with its fields', async (t) => {
  const plan = await createSubscriptionPlan(app, adminId, { external_reference: 'SUB-PLAN-1' });
  const customer = await createCustomer(app, adminId);
  const created = await app.request('POST', PATH, {
    body: {
      admin_id: adminId, customer_id: customer.id, plan_id: plan.id, buyer_reference: 'PO-1', valid_from: '2026-01-01T01:00:00+01:00',
      valid_until: '2027-01-01T00:00:00Z', custom_fields: { tier: 'gold', gone: null }, external_reference: 'SUB-1',
    },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    admin_id: adminId, customer_id: customer.id, plan_id: plan.id, plan_external_reference: 'SUB-PLAN-1', buyer_reference: 'PO-1',
    valid_from: '2026-01-01T00:00:00.000Z', valid_until: '2027-01-01T00:00:00.000Z', defunct: false, monetary_credit_balance: '0.00',
    external_reference: 'SUB-1', external_updated_at: null,
  });
  t.deepEqual(created.body.custom_fields, { tier: 'gold' });
  t.deepEqual(created.body.links, []);
  const read = await app.request('GET', `${PATH}/${created.body.id}`);
  t.is(read.status, 200);
  t.deepEqual(read.body, created.body);
});

test('customer and plan by external reference; admin_id defaults to the plan\'s', async (t) => {
  const plan = await createSubscriptionPlan(app, adminId, { external_reference: 'SUB-PLAN-REF' });
  const customer = await createCustomer(app, adminId);
  const created = await app.request('POST', PATH, {
    body: { customer_external_reference: customer.external_reference.toUpperCase(), plan_external_reference: 'sub-plan-ref', valid_from: at(0) },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.admin_id, adminId);
  t.is(created.body.customer_id, customer.id);
  t.is(created.body.plan_id, plan.id);
});

test('exactly one of id and external reference for customer and plan', async (t) => {
  const plan = await createSubscriptionPlan(app, adminId, { external_reference: 'SUB-PLAN-ONE' });
  const customer = await createCustomer(app, adminId);
  const base = { valid_from: at(0) };
  const cases: [Record<string, unknown>, string][] = [
    [{ plan_id: plan.id }, '$.customer_id'],
    [{ plan_id: plan.id, customer_id: customer.id, customer_external_reference: customer.external_reference }, '$.customer_id'],
    [{ customer_id: customer.id }, '$.plan_id'],
    [{ customer_id: customer.id, plan_id: plan.id, plan_external_reference: 'SUB-PLAN-ONE' }, '$.plan_id'],
    [{ customer_id: customer.id, plan_external_reference: 'nope' }, '$.plan_external_reference'],
    [{ customer_id: customer.id, plan_id: 'not-an-id' }, '$.plan_id'],
  ];
  for (const [fields, param] of cases) {
    const response = await app.request('POST', PATH, { body: { ...base, ...fields } });
    t.is(response.status, 400, JSON.stringify(fields));
    t.is(response.body.param, param, JSON.stringify(response.body));
  }
});

test('the plan must belong to the subscription\'s administration; its publishing window is not enforced', async (t) => {
  const other = await createAdministration(app);
  const foreignPlan = await createSubscriptionPlan(app, other.id);
  const customer = await createCustomer(app, adminId);
  const refused = await app.request('POST', PATH, { body: { admin_id: adminId, customer_id: customer.id, plan_id: foreignPlan.id, valid_from: at(0) } });
  t.is(refused.status, 400);
  t.like(refused.body, { code: 'not_found', param: '$.plan_id' });

  const unpublished = await createSubscriptionPlan(app, adminId, { publish_from: at(30 * 24 * HOUR), publish_until: at(60 * 24 * HOUR) });
  const accepted = await app.request('POST', PATH, { body: { customer_id: customer.id, plan_id: unpublished.id, valid_from: at(0) } });
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  const expired = await createSubscriptionPlan(app, adminId, { publish_from: '2020-01-01T00:00:00Z', publish_until: '2021-01-01T00:00:00Z' });
  t.is((await app.request('POST', PATH, { body: { customer_id: customer.id, plan_id: expired.id, valid_from: at(0) } })).status, 200);
});

test('the customer may belong to another administration the caller can see', async (t) => {
  const other = await createAdministration(app);
  const foreignCustomer = await createCustomer(app, other.id);
  const plan = await createSubscriptionPlan(app, adminId);
  const created = await app.request('POST', PATH, { body: { admin_id: adminId, customer_id: foreignCustomer.id, plan_id: plan.id, valid_from: at(0) } });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.admin_id, adminId);
  t.is(created.body.customer_id, foreignCustomer.id);

  const limited = await app.credential({ role: 'admin', adminIds: [adminId] });
  const hidden = await app.request('POST', PATH, { auth: limited, body: { admin_id: adminId, customer_id: foreignCustomer.id, plan_id: plan.id, valid_from: at(0) } });
  t.is(hidden.status, 400);
  t.like(hidden.body, { code: 'not_found', param: '$.customer_id' });
  const read = await app.request('GET', `${PATH}/${created.body.id}`, { auth: limited });
  t.is(read.status, 200, 'the subscription itself stays visible in its administration');
});

test('valid_from is required and valid_until must be after it', async (t) => {
  const plan = await createSubscriptionPlan(app, adminId);
  const customer = await createCustomer(app, adminId);
  const base = { customer_id: customer.id, plan_id: plan.id };
  const missing = await app.request('POST', PATH, { body: base });
  t.like(missing.body, { param: '$.valid_from' });
  const equal = await app.request('POST', PATH, { body: { ...base, valid_from: '2026-03-01T00:00:00Z', valid_until: '2026-03-01T01:00:00+01:00' } });
  t.is(equal.status, 400);
  t.is(equal.body.param, '$.valid_until');
  const date = await app.request('POST', PATH, { body: { ...base, valid_from: '2026-03-01' } });
  t.is(date.body.param, '$.valid_from');
});

test('wrong types are 400 with a param; unknown fields are reported', async (t) => {
  const subscription = await createTokenSubscription(app, adminId);
  const cases: [Record<string, unknown>, string][] = [
    [{ buyer_reference: 12 }, '$.buyer_reference'],
    [{ valid_until: 'tomorrow' }, '$.valid_until'],
    [{ custom_fields: { nested: { a: 1 } } }, '$.custom_fields.nested'],
    [{ custom_fields: 'x' }, '$.custom_fields'],
    [{ recurring_cost_correction: 'yes' }, '$.recurring_cost_correction'],
  ];
  for (const [body, param] of cases) {
    const response = await app.request('POST', `${PATH}/${subscription.id}`, { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.body.param, param);
  }
  const unknown = await app.request('POST', `${PATH}/${subscription.id}`, { body: { buyer_reference: 'B', links: [], colour: 'red' } });
  t.is(unknown.status, 200);
  t.is(unknown.headers.get('x-svc-unknown-fields'), '$.links,$.colour');
  const badLinks = await app.request('POST', PATH, { body: { valid_from: at(0), links: [{ evco_id: 5 }] } });
  t.is(badLinks.body.param, '$.links[0].evco_id');
  const badUidType = await app.request('POST', PATH, { body: { valid_from: at(0), token_uid_type_id: 'magnetic' } });
  t.is(badUidType.body.param, '$.token_uid_type_id');
});

test('merge-update: absent keeps, null clears, custom_fields merge, immutable fields ignored', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, {
    buyer_reference: 'PO-9', valid_until: '2030-01-01T00:00:00Z', custom_fields: { a: 1, b: 'two' },
  });
  const otherPlan = await createSubscriptionPlan(app, adminId);
  // Immutable members naming visible records are ignored (an unknown one is not_found: cross-administration-refs.test.ts).
  const elsewhere = (await createAdministration(app)).id;
  const updated = await app.request('POST', `${PATH}/${subscription.id}`, {
    body: {
      valid_until: null, custom_fields: { a: null, c: true }, plan_id: otherPlan.id, admin_id: elsewhere, recurring_cost_correction: true,
      external_updated_at: '2026-05-01T12:00:00+02:00',
    },
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.is(updated.body.valid_until, null);
  t.is(updated.body.buyer_reference, 'PO-9');
  t.deepEqual(updated.body.custom_fields, { b: 'two', c: true });
  t.is(updated.body.plan_id, subscription.plan_id);
  t.is(updated.body.admin_id, adminId);
  t.is(updated.body.external_updated_at, '2026-05-01T10:00:00.000Z');

  const noFrom = await app.request('POST', `${PATH}/${subscription.id}`, { body: { valid_from: null } });
  t.like(noFrom.body, { param: '$.valid_from' });
  const backwards = await app.request('POST', `${PATH}/${subscription.id}`, { body: { valid_until: '2025-12-31T23:59:59.999Z' } });
  t.like(backwards.body, { param: '$.valid_until' });
  const missing = await app.request('POST', `${PATH}/0190f5d2-0000-7000-8000-000000000000`, { body: { buyer_reference: 'x' } });
  t.like(missing.body, { code: 'not_found' });
});

test('deprecated PUT resets omitted fields and replaces custom_fields', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, {
    buyer_reference: 'PO-1', valid_until: '2030-01-01T00:00:00Z', custom_fields: { a: 1 }, external_reference: 'SUB-PUT',
  });
  const replaced = await app.request('PUT', `${PATH}/${subscription.id}`, { body: { valid_from: '2026-02-01T00:00:00Z', custom_fields: { b: 2 } } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { buyer_reference: null, valid_until: null, external_reference: null, valid_from: '2026-02-01T00:00:00.000Z' });
  t.deepEqual(replaced.body.custom_fields, { b: 2 });
  const noFrom = await app.request('PUT', `${PATH}/${subscription.id}`, { body: {} });
  t.like(noFrom.body, { param: '$.valid_from' });
});

test('deprecated single-field endpoints', async (t) => {
  const subscription = await createTokenSubscription(app, adminId);
  const from = await app.request('PUT', `${PATH}/${subscription.id}/valid-from`, { body: { valid_from: '2026-01-15T00:00:00Z' } });
  t.is(from.status, 200, JSON.stringify(from.body));
  t.is(from.body.valid_from, '2026-01-15T00:00:00.000Z');
  const nullFrom = await app.request('PUT', `${PATH}/${subscription.id}/valid-from`, { body: { valid_from: null } });
  t.like(nullFrom.body, { param: '$.valid_from' });
  t.is((await app.request('DELETE', `${PATH}/${subscription.id}/valid-from`)).status, 405);

  const until = await app.request('PUT', `${PATH}/${subscription.id}/valid-until`, { body: { valid_until: '2026-06-01T00:00:00Z' } });
  t.is(until.body.valid_until, '2026-06-01T00:00:00.000Z');
  const cleared = await app.request('DELETE', `${PATH}/${subscription.id}/valid-until`, { body: { external_updated_at: '2026-06-02T00:00:00Z' } });
  t.is(cleared.status, 200);
  t.is(cleared.body.valid_until, null);
  t.is(cleared.body.external_updated_at, '2026-06-02T00:00:00.000Z');
  const clearedNoBody = await app.request('DELETE', `${PATH}/${subscription.id}/valid-until`);
  t.is(clearedNoBody.status, 200);
});

test('token_series_id issues a token and links it, in the same transaction', async (t) => {
  const series = await insertTokenSeries(app, adminId, { uidType: 'rfid_7byte' });
  const created = await createTokenSubscription(app, adminId, { token_series_id: series.id, token_uid: '04a1b2c3d4e5f6', valid_from: '2026-01-01T00:00:00Z' });
  t.is(created.links.length, 1);
  const [link] = created.links;
  t.like(link, { valid_from: null, effective_valid_from: '2026-01-01T00:00:00.000Z', valid_until: null, defunct: false });
  t.regex(link.evco_id, /^NL[0-9A-Z]{3}C0{7}1[0-9A-Z]$/);
  const token = await scopedEm(app.orm).findOneOrFail(Token, { evcoId: link.evco_id });
  t.is(token.uid, '04A1B2C3D4E5F6');
  t.is(token.uidType, 'rfid_7byte');
  t.truthy(token.firstLinkedAt);
  t.is(token.currentAdmin.id, adminId);
  const second = await createTokenSubscription(app, adminId, { token_series_id: series.id });
  t.not(second.links[0].evco_id, link.evco_id, 'the series advances');

  const count = () => scopedEm(app.orm).count(TokenSubscription, { externalReference: 'SUB-ROLLBACK' });
  const badUid = await app.request('POST', PATH, {
    body: { valid_from: at(0), customer_id: created.customer_id, plan_id: created.plan_id, token_series_id: series.id, token_uid: 'XYZ', external_reference: 'SUB-ROLLBACK' },
  });
  t.is(badUid.status, 400);
  t.is(badUid.body.param, '$.token_uid');
  const other = await createAdministration(app);
  const foreignSeries = await insertTokenSeries(app, other.id);
  const wrongSeries = await app.request('POST', PATH, {
    body: { valid_from: at(0), customer_id: created.customer_id, plan_id: created.plan_id, token_series_id: foreignSeries.id, external_reference: 'SUB-ROLLBACK' },
  });
  t.like(wrongSeries.body, { code: 'not_found', param: '$.token_series_id' });
  const noSeries = await app.request('POST', PATH, {
    body: { valid_from: at(0), customer_id: created.customer_id, plan_id: created.plan_id, token_uid_type_id: 'rfid_4byte', external_reference: 'SUB-ROLLBACK' },
  });
  t.like(noSeries.body, { param: '$.token_series_id' });
  t.is(await count(), 0, 'a failed create leaves no subscription behind');
});

test('links on create link existing tokens; an overlap rolls everything back', async (t) => {
  const a = await insertToken(app, adminId);
  const b = await insertToken(app, adminId);
  const created = await createTokenSubscription(app, adminId, {
    valid_from: '2026-01-01T00:00:00Z',
    links: [{ evco_id: a.evcoId.toLowerCase() }, { evco_id: b.evcoId, valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-03-01T00:00:00Z' }],
  });
  t.deepEqual(created.links.map((l: any) => [l.evco_id, l.valid_from, l.effective_valid_from, l.valid_until]), [
    [a.evcoId, null, '2026-01-01T00:00:00.000Z', null],
    [b.evcoId, '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
  ]);

  const c = await insertToken(app, adminId);
  const clash = await app.request('POST', PATH, {
    body: {
      valid_from: '2026-01-01T00:00:00Z', customer_id: created.customer_id, plan_id: created.plan_id, external_reference: 'SUB-CLASH',
      links: [{ evco_id: c.evcoId }, { evco_id: b.evcoId, valid_from: '2026-02-15T00:00:00Z' }],
    },
  });
  t.is(clash.status, 400);
  t.like(clash.body, { code: 'overlapping_token_link', param: '$.links[1].valid_from' });
  t.is(await scopedEm(app.orm).count(TokenSubscription, { externalReference: 'SUB-CLASH' }), 0);
  const cToken = await scopedEm(app.orm).findOneOrFail(Token, { id: c.id });
  t.is(cToken.firstLinkedAt, null, 'the token of the failed request was not linked');

  const seamless = await createTokenSubscription(app, adminId, {
    valid_from: '2026-01-01T00:00:00Z', customer_id: created.customer_id, plan_id: created.plan_id,
    links: [{ evco_id: b.evcoId, valid_from: '2026-03-01T00:00:00Z' }],
  });
  t.is(seamless.links.length, 1);
  const unknown = await app.request('POST', PATH, {
    body: { valid_from: at(0), customer_id: created.customer_id, plan_id: created.plan_id, links: [{ evco_id: 'NL-XXX-999999999' }] },
  });
  t.like(unknown.body, { code: 'not_found', param: '$.links[0].evco_id' });
  const malformed = await app.request('POST', PATH, {
    body: { valid_from: at(0), customer_id: created.customer_id, plan_id: created.plan_id, links: [{ evco_id: 'garbage' }] },
  });
  t.like(malformed.body, { param: '$.links[0].evco_id' });
});

test('defunct cascades to every link, in one step; a defunct subscription stays as it is', async (t) => {
  const a = await insertToken(app, adminId);
  const b = await insertToken(app, adminId);
  const subscription = await createTokenSubscription(app, adminId, { links: [{ evco_id: a.evcoId }, { evco_id: b.evcoId }] });
  const defunct = await app.request('PUT', `${PATH}/${subscription.id}/defunct`, { body: { external_updated_at: '2026-07-01T00:00:00Z' } });
  t.is(defunct.status, 200, JSON.stringify(defunct.body));
  t.true(defunct.body.defunct);
  t.false(defunct.body.is_valid);
  t.is(defunct.body.external_updated_at, '2026-07-01T00:00:00.000Z');
  t.deepEqual(defunct.body.links.map((l: any) => l.defunct), [true, true]);
  for (const link of defunct.body.links) {
    const read = await app.request('GET', `/main/v1/msp-token-link/${link.id}`);
    t.true(read.body.defunct);
  }
  const again = await app.request('PUT', `${PATH}/${subscription.id}/defunct`);
  t.is(again.status, 200, 'idempotent');

  const change = await app.request('POST', `${PATH}/${subscription.id}`, { body: { buyer_reference: 'late' } });
  t.like(change.body, { code: 'subscription_defunct', param: '$.buyer_reference' });
  const stamp = await app.request('POST', `${PATH}/${subscription.id}`, { body: { external_updated_at: '2026-08-01T00:00:00Z' } });
  t.is(stamp.status, 200);
  t.is(stamp.body.external_updated_at, '2026-08-01T00:00:00.000Z');

  // The links are defunct, so the tokens are free for another subscription.
  const next = await createTokenSubscription(app, adminId, { links: [{ evco_id: a.evcoId }] });
  t.is(next.links.length, 1);
});

test('moving valid_from moves the links that defer to it, re-checked', async (t) => {
  const token = await insertToken(app, adminId);
  const first = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z', links: [{ evco_id: token.evcoId, valid_until: '2026-03-01T00:00:00Z' }] });
  const second = await createTokenSubscription(app, adminId, { valid_from: '2026-03-01T00:00:00Z', links: [{ evco_id: token.evcoId }] });
  const overlap = await app.request('POST', `${PATH}/${second.id}`, { body: { valid_from: '2026-02-28T23:59:59.999Z' } });
  t.like(overlap.body, { code: 'overlapping_token_link', param: '$.valid_from' });
  const later = await app.request('POST', `${PATH}/${second.id}`, { body: { valid_from: '2026-03-02T00:00:00Z' } });
  t.is(later.status, 200);
  t.is(later.body.links[0].effective_valid_from, '2026-03-02T00:00:00.000Z');
  const pastEnd = await app.request('POST', `${PATH}/${first.id}`, { body: { valid_from: '2026-03-01T00:00:00Z' } });
  t.like(pastEnd.body, { code: 'invalid_input', param: '$.valid_from' });
});

test('moving valid_from back over another link of the same token in the same subscription is refused too (POST and PUT)', async (t) => {
  const token = await insertToken(app, adminId);
  const subscription = await createTokenSubscription(app, adminId, { valid_from: '2026-10-01T00:00:00Z', links: [{ evco_id: token.evcoId }] });
  const september = await app.request('POST', '/main/v1/msp-token-link', {
    body: { subscription_id: subscription.id, evco_id: token.evcoId, valid_from: '2026-09-01T00:00:00Z', valid_until: '2026-10-01T00:00:00Z' },
  });
  t.is(september.status, 200, JSON.stringify(september.body));
  for (const method of ['POST', 'PUT']) {
    const moved = await app.request(method, `${PATH}/${subscription.id}`, { body: { valid_from: '2026-09-01T00:00:00Z' } });
    t.like(moved.body, { code: 'overlapping_token_link', param: '$.valid_from' }, method);
  }
  t.is((await app.request('GET', `${PATH}/${subscription.id}`)).body.valid_from, '2026-10-01T00:00:00.000Z');
});

test('list filters: is_valid at the bounds, plan_id, customer_id, has_monetary_credits', async (t) => {
  const admin = (await createAdministration(app)).id;
  const plan = await createSubscriptionPlan(app, admin);
  const customer = await createCustomer(app, admin);
  const make = (fields: Record<string, unknown>) => createTokenSubscription(app, admin, { plan_id: plan.id, customer_id: customer.id, ...fields });
  const startedNow = await make({ valid_from: at(0) });
  const endsSoon = await make({ valid_from: at(-HOUR), valid_until: at(HOUR) });
  const endedNow = await make({ valid_from: at(-HOUR), valid_until: at(0) });
  const startsSoon = await make({ valid_from: at(60_000) });
  const defunct = await make({ valid_from: at(-HOUR) });
  await app.request('PUT', `${PATH}/${defunct.id}/defunct`);
  const otherPlan = await make({ valid_from: at(-HOUR), plan_id: (await createSubscriptionPlan(app, admin)).id });
  const otherCustomer = await make({ valid_from: at(-HOUR), customer_id: (await createCustomer(app, admin)).id });
  const em = scopedEm(app.orm);
  const credited = await em.findOneOrFail(TokenSubscription, { id: otherCustomer.id });
  credited.monetaryCreditBalance = '0.01';
  await em.flush();

  const scoped = await app.credential({ role: 'readonly', adminIds: [admin] });
  const ids = async (query: string) => {
    const response = await app.request('GET', `${PATH}?${query}`, { auth: scoped });
    t.is(response.status, 200, JSON.stringify(response.body));
    return response.body.items.map((s: any) => s.id);
  };
  t.deepEqual(await ids('is_valid=true'), [startedNow.id, endsSoon.id, otherPlan.id, otherCustomer.id]);
  t.deepEqual(await ids('is_valid=false'), [endedNow.id, startsSoon.id, defunct.id]);
  t.deepEqual(await ids(`plan_id=${plan.id}&is_valid=true`), [startedNow.id, endsSoon.id, otherCustomer.id]);
  t.deepEqual(await ids(`customer_id=${otherCustomer.customer_id}`), [otherCustomer.id]);
  t.deepEqual(await ids('has_monetary_credits=true'), [otherCustomer.id]);
  t.is((await ids('has_monetary_credits=false')).length, 6);
  const read = await app.request('GET', `${PATH}/${otherCustomer.id}`, { auth: scoped });
  t.is(read.body.monetary_credit_balance, '0.01');
  t.true(read.body.is_valid);
  t.false((await app.request('GET', `${PATH}/${endedNow.id}`, { auth: scoped })).body.is_valid);

  const paged = await app.request('GET', `${PATH}?is_valid=true&page_size=2`, { auth: scoped });
  t.is(paged.body.items.length, 2);
  t.regex(paged.body.link_next, /is_valid=true/);
  const rest = await app.request('GET', paged.body.link_next, { auth: scoped });
  t.deepEqual(rest.body.items.map((s: any) => s.id), [otherPlan.id, otherCustomer.id]);

  for (const [query, param] of [['is_valid=yes', 'is_valid'], ['plan_id=nope', 'plan_id'], ['has_monetary_credits=1', 'has_monetary_credits'], ['customer_id=x', 'customer_id']]) {
    const bad = await app.request('GET', `${PATH}?${query}`, { auth: scoped });
    t.is(bad.status, 400, query);
    t.is(bad.body.query_param, param);
  }
});

test.serial('created_gt points at the first subscription created after the moment', async (t) => {
  const before = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const first = await createTokenSubscription(app, adminId);
  const response = await app.request('GET', `${PATH}?created_gt=${encodeURIComponent(before)}`);
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(response.body.items, []);
  t.true(response.body.link_next.includes(`after=${first.id}`));
  const combined = await app.request('GET', `${PATH}?created_gt=${encodeURIComponent(before)}&is_valid=true`);
  t.is(combined.body.query_param, 'created_gt');
});

test('a credential of another administration sees nothing', async (t) => {
  const token = await insertToken(app, adminId);
  const subscription = await createTokenSubscription(app, adminId, { links: [{ evco_id: token.evcoId }] });
  const other = await createAdministration(app);
  const outsider = await app.credential({ role: 'admin', adminIds: [other.id] });
  const list = await app.request('GET', PATH, { auth: outsider });
  t.deepEqual(list.body.items, []);
  for (const [method, path, body] of [
    ['GET', `${PATH}/${subscription.id}`, undefined],
    ['POST', `${PATH}/${subscription.id}`, { buyer_reference: 'x' }],
    ['PUT', `${PATH}/${subscription.id}`, { valid_from: at(0) }],
    ['PUT', `${PATH}/${subscription.id}/defunct`, undefined],
    ['PUT', `${PATH}/${subscription.id}/valid-until`, { valid_until: at(HOUR) }],
    ['GET', `/main/v1/msp-token-link/${subscription.links[0].id}`, undefined],
  ] as const) {
    const response = await app.request(method, path, { auth: outsider, body });
    t.is(response.status, 400, `${method} ${path}`);
    t.is(response.body.code, 'not_found');
  }
  const afterPaging = await app.request('GET', `${PATH}?after=${subscription.id}`, { auth: outsider });
  t.is(afterPaging.body.query_param, 'after');
  const create = await app.request('POST', PATH, {
    auth: outsider, body: { admin_id: other.id, customer_id: subscription.customer_id, plan_id: subscription.plan_id, valid_from: at(0) },
  });
  t.like(create.body, { code: 'not_found', param: '$.customer_id' });
  const read = await app.request('GET', `${PATH}/${subscription.id}`);
  t.false(read.body.defunct);
  t.is(read.body.buyer_reference, null);
});
