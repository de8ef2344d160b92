// Impossible timestamps (decisions.md "Limits"): every body field, query filter and rule date
// answers 400 naming the place, never 500 and never another day.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, createTokenSubscription } from '../../helpers/factories.ts';
import { createRatePlan, sessionBody, SIMPLE_RATES } from '../../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const IMPOSSIBLE = [
  '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-02-30T10:00:00Z', '2026-02-29T10:00:00Z', '2026-04-31T00:00:00Z',
  '2026-13-01T00:00:00Z', '2026-03-02T24:00:00Z', '2026-12-31T23:59:60Z', '2026-03-02T10:00:00', '2026-03-02T10:00Z',
  '2026-03-02T10:00:00+0100', '2026-03-02T10:00:00+24:00', '1899-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '1900-01-01T00:00:00+01:00',
];
const api = (path: string) => `/main/v1${path}`;

test('a body field: 400 with the param, nothing stored', async (t) => {
  const customer = await createCustomer(app, adminId);
  for (const value of IMPOSSIBLE) {
    const response = await app.request('POST', api('/billing-direct-debit-mandate'), {
      body: { customer_id: customer.id, bank_account_name: 'A. Lovelace', iban: 'NL91ABNA0417164300', valid_from: value },
    });
    t.is(response.status, 400, value);
    t.like(response.body, { code: 'validation_failed', param: '$.valid_from' }, value);
    t.regex(response.body.message, /RFC 3339/, value);
  }
  t.deepEqual((await app.request('GET', api(`/customer/${customer.id}/direct-debit-mandate`))).body.items, []);

  for (const value of IMPOSSIBLE) {
    const response = await app.request('POST', api(`/customer/${customer.id}`), { body: { name: 'Changed', external_updated_at: value } });
    t.is(response.status, 400, value);
    t.is(response.body.param, '$.external_updated_at', value);
  }
  t.like((await app.request('GET', api(`/customer/${customer.id}`))).body, { name: customer.name, external_updated_at: null });
});

test('the boundaries are stored as sent, an offset may move the day', async (t) => {
  const customer = await createCustomer(app, adminId);
  for (const [sent, stored] of [
    ['1900-01-01T00:00:00Z', '1900-01-01T00:00:00.000Z'], ['2024-02-29T23:30:00-01:00', '2024-03-01T00:30:00.000Z'],
    ['2026-03-02T10:00:00.123456+14:00', '2026-03-01T20:00:00.123Z'], ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ]) {
    const response = await app.request('POST', api(`/customer/${customer.id}`), { body: { external_updated_at: sent } });
    t.is(response.status, 200, JSON.stringify(response.body));
    t.is(response.body.external_updated_at, stored, sent);
  }
});

test('nested session times name their path; a refused session is not stored', async (t) => {
  const body = sessionBody('NL-TST-C12345678-9');
  for (const value of ['0000-01-01T00:00:00Z', '2026-02-30T10:00:00Z', '+275760-09-13T00:00:00Z']) {
    const top = await app.request('POST', api('/charge-session'), { body: { ...body, start_date_time: value } });
    t.is(top.status, 400, value);
    t.is(top.body.param, '$.start_date_time', value);
    const nested = await app.request('POST', api('/charge-session'), {
      body: { ...body, total_energy_kwh: undefined, charge_periods: [{ start_date_time: value, dimensions: [{ type: 'energy', volume: '10' }] }] },
    });
    t.is(nested.status, 400, value);
    t.is(nested.body.param, '$.charge_periods[0].start_date_time', value);
  }
  const accepted = await app.request('POST', api('/charge-session'), { body });
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  t.false(accepted.body.duplicate, 'none of the refused bodies was stored');
});

test('deprecated single-field endpoints and plan-or-customer corrections check the same way', async (t) => {
  const subscription = await createTokenSubscription(app, adminId);
  const single = await app.request('PUT', api(`/msp-token-subscription/${subscription.id}/valid-from`), { body: { valid_from: '2026-02-30T00:00:00Z' } });
  t.is(single.status, 400);
  t.is(single.body.param, '$.valid_from');
  const correction = await app.request('POST', api(`/msp-token-subscription/${subscription.id}/plan-or-customer-correction`), {
    body: { valid_from: '0000-01-01T00:00:00Z', new_customer_id: (await createCustomer(app, adminId)).id },
  });
  t.is(correction.status, 400);
  t.is(correction.body.param, '$.valid_from');
  t.is((await app.request('GET', api(`/msp-token-subscription/${subscription.id}`))).body.valid_from, '2026-01-01T00:00:00.000Z');
});

test('created_gt: 400 with the query_param', async (t) => {
  for (const value of IMPOSSIBLE) {
    const response = await app.request('GET', api(`/customer?created_gt=${encodeURIComponent(value)}`));
    t.is(response.status, 400, value);
    t.like(response.body, { code: 'invalid_query', query_param: 'created_gt' }, value);
  }
});

test('a query filter: 400 with the query_param', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }]);
  const query = { rate_plan_id: ratePlanId, start_date_time: '2026-03-02T10:00:00Z', end_date_time: '2026-03-02T11:00:00Z', energy_kwh: '10', country: 'NL', time_zone: 'Europe/Amsterdam' };
  for (const param of ['start_date_time', 'end_date_time'] as const) {
    for (const value of ['0000-01-01T00:00:00Z', '2026-02-30T10:30:00Z', '+275760-09-13T00:00:00Z']) {
      const response = await app.request('GET', api(`/msp-charge-cost-calculation?${new URLSearchParams({ ...query, [param]: value })}`));
      t.is(response.status, 400, `${param}=${value}`);
      t.is(response.body.query_param, param, `${param}=${value}`);
    }
  }
});

test('rate plan versions: valid_from and the dates of rule windows', async (t) => {
  const ratePlanId = await createRatePlan(app, []);
  const version = (body: Record<string, unknown>) => app.request('POST', api(`/rate-plan/${ratePlanId}/version`), { body: { valid_from: '2026-01-01T00:00:00Z', definition: SIMPLE_RATES, ...body } });
  const from = await version({ valid_from: '0000-01-01T00:00:00Z' });
  t.is(from.status, 400);
  t.is(from.body.param, '$.valid_from');
  for (const date of ['2026-02-30', '2026-02-29', '0000-01-01', '2026-04-31']) {
    const rule = { name: 'Holiday', match: { date_from: date }, rates: { energy: { price: '0.10' } } };
    const response = await version({ definition: { ...SIMPLE_RATES, rules: [rule] } });
    t.is(response.status, 400, date);
    t.is(response.body.param, '$.definition.rules[0].match.date_from', date);
  }
  const leap = await version({ definition: { ...SIMPLE_RATES, rules: [{ name: 'Leap', match: { date_from: '2028-02-29' }, rates: { energy: { price: '0.10' } } }] } });
  t.is(leap.status, 200, JSON.stringify(leap.body));
  t.is(leap.body.definition.rules[0].match.date_from, '2028-02-29');
});
