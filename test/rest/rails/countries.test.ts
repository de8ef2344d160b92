// Countries are officially assigned ISO 3166-1 alpha-2 codes (shared decisions "Running the
// service"): `XX` (user-assigned), `EU` (reserved), `XK` (Kosovo's user-assigned code) and `NLD`
// are 400 at their param or query_param, wherever a country is taken; assigned codes pass in any
// casing where they did.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, SELLER } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { sessionBody } from '../../helpers/session-factories.ts';
import { COUNTRY_CODES, isCountryCode } from '../../../src/platform/countries.ts';

let app: TestApp;
let adminId: string;
let customerId: string;
test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  adminId = (await createAdministration(app)).id;
  customerId = (await createCustomer(app, adminId)).id;
});
test.after.always(async () => { await app?.close(); });

const NOT_ASSIGNED = ['XX', 'xx', 'EU', 'XK', 'ZZ', 'AA', 'UK'];
let n = 0;
const next = () => `${process.pid}${++n}`;

test('the list: 249 officially assigned codes, upper case, unique; user-assigned and reserved codes are not countries', (t) => {
  t.is(COUNTRY_CODES.length, 249);
  t.is(new Set(COUNTRY_CODES).size, 249);
  for (const code of COUNTRY_CODES) t.regex(code, /^[A-Z]{2}$/);
  for (const code of ['NL', 'nl', 'De', 'AX', 'SS', 'BQ', 'CW']) t.true(isCountryCode(code), code);
  for (const code of [...NOT_ASSIGNED, 'NLD', 'N', '', 'QM', 'XA', 'AN', 'CS', 'YU']) t.false(isCountryCode(code), code);
});

/** A body that is refused at `param` for each unassigned country, and accepted with `ok`. */
async function refusedAt(t: any, method: string, path: () => string, body: (country: string) => Record<string, unknown>, param: string, ok = 'NL') {
  for (const country of NOT_ASSIGNED) {
    const r = await app.request(method, path(), { body: body(country) });
    t.is(r.status, 400, `${path()} ${country}: ${JSON.stringify(r.body)}`);
    t.is(r.body.param, param, `${path()} ${country}: ${JSON.stringify(r.body)}`);
  }
  const accepted = await app.request(method, path(), { body: body(ok) });
  t.true(accepted.status === 200 || accepted.status === 201, `${path()} ${ok}: ${JSON.stringify(accepted.body)}`);
}

test('customers, billing addresses, roaming partners and VAT rates take assigned countries only', async (t) => {
  await refusedAt(t, 'POST', () => `/main/v1/customer/ext_ref.CC-${next()}`, (country) => ({ admin_id: adminId, name: 'Ada', country }), '$.country', 'nl');
  await refusedAt(t, 'POST', () => `/main/v1/billing-address/ext_ref.BA-${next()}`, (country) => ({ customer_id: customerId, addressee: 'Ada', city: 'Utrecht', country }), '$.country');
  await refusedAt(t, 'POST', () => '/main/v1/roaming-partner', (country) => ({ name: `P ${next()}`, country }), '$.country', 'DE');
  let year = 2000;
  await refusedAt(t, 'POST', () => '/main/v1/vat-rate', (country) => ({
    country, vat_kind: 'standard', percentage: '20', valid_from: `${year++}-01-01T00:00:00Z`, valid_until: `${year}-01-01T00:00:00Z`,
  }), '$.country', 'FR');
});

test('roaming party ids: the country part of cpo_ids and msp_ids, and of a session\'s cpo_id, is an assigned code', async (t) => {
  const partner = await app.request('POST', '/main/v1/roaming-partner', { body: { name: `P ${next()}`, country: 'NL', cpo_ids: ['NL*A01', 'XX*A02'] } });
  t.is(partner.status, 400);
  t.is(partner.body.param, '$.cpo_ids[1]');
  const msp = await app.request('POST', '/main/v1/roaming-partner', { body: { name: `P ${next()}`, country: 'NL', msp_ids: ['EU-A03'] } });
  t.is(msp.body.param, '$.msp_ids[0]');
  for (const cpoId of ['XX*ABC', 'xx-abc', 'XKABC']) {
    const session = await app.request('POST', '/main/v1/charge-session', { body: sessionBody('NL-TNM-C00122045', { cpo_id: cpoId }) });
    t.is(session.status, 400, cpoId);
    t.is(session.body.param, '$.cpo_id', cpoId);
  }
  const ok = await app.request('POST', '/main/v1/charge-session', { body: sessionBody('NL-TNM-C00122045', { cpo_id: 'be-abc' }) });
  t.is(ok.status, 200, JSON.stringify(ok.body));
});

test('a charge session\'s address.country, a location\'s address.country', async (t) => {
  await refusedAt(t, 'POST', () => '/main/v1/charge-session', (country) => sessionBody('NL-TNM-C00122045', {
    address: { street: 'Stationsplein 1', city: 'Utrecht', postal_code: '3511 ED', country },
  }), '$.address.country', 'nl');
  await refusedAt(t, 'POST', () => '/main/v1/cpo-evse-location', (country) => ({
    admin_id: adminId, location_id: `LOC-${next()}`, name: 'Station', address: { city: 'Utrecht', country }, time_zone: 'Europe/Amsterdam',
  }), '$.address.country');
});

test('billing: the seller\'s country of the billing settings, a custom item\'s vat_country', async (t) => {
  const admin = (await createAdministration(app)).id;
  await refusedAt(t, 'POST', () => `/main/v1/administration/${admin}/billing-settings`, (country) => ({
    time_zone: 'Europe/Amsterdam', seller: { ...SELLER, country }, payment_term_days: 14,
  }), '$.seller.country');
  await configureBilling(app, adminId);
  for (const country of NOT_ASSIGNED) {
    const r = await app.request('POST', '/main/v1/billing-custom-item', {
      body: {
        time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customerId, admin_id: adminId, description: 'Service', quantity: '1',
        unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', vat_country: country,
      },
    });
    t.is(r.status, 400, country);
    t.is(r.body.param, '$.vat_country', `${country}: ${JSON.stringify(r.body)}`);
  }
});

test('tokens: an evco_prefix of a series and an EVCO id to validate start with an assigned country', async (t) => {
  const series = await app.request('POST', '/main/v1/msp-token-series', { body: { admin_id: adminId, name: 'Cards', evco_prefix: 'XX-TNM' } });
  t.is(series.status, 400);
  t.is(series.body.param, '$.evco_prefix');
  const validated = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: { evco_id: 'XX-TNM-C00122045' } });
  t.is(validated.status, 400);
  t.is(validated.body.param, '$.evco_id');
  const nl = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: { evco_id: 'nl-tnm-c00122045' } });
  t.is(nl.status, 200);
});

test('a rate plan rule matching countries names assigned codes', async (t) => {
  const plan = await app.request('POST', '/main/v1/rate-plan', { body: { name: `Plan ${next()}`, currency: 'EUR' } });
  const version = (countries: string[]) => app.request('POST', `/main/v1/rate-plan/${plan.body.id}/version`, {
    body: {
      valid_from: `20${10 + n++}-01-01T00:00:00Z`,
      definition: { rates: { energy: { price: '0.30' } }, rules: [{ name: 'Abroad', match: { countries }, rates: { energy: { price: '0.40' } } }] },
    },
  });
  const bad = await version(['DE', 'XX']);
  t.is(bad.status, 400);
  t.is(bad.body.param, '$.definition.rules[0].match.countries');
  t.is((await version(['DE', 'BE'])).status, 200);
});

test('query filters: GET /vat-rate?country and GET /msp-charge-cost-calculation?country are 400 naming the query_param', async (t) => {
  for (const country of NOT_ASSIGNED) {
    const list = await app.request('GET', `/main/v1/vat-rate?country=${country}`);
    t.is(list.status, 400, country);
    t.is(list.body.query_param, 'country');
    const calc = await app.request('GET', `/main/v1/msp-charge-cost-calculation?rate_plan_id=${customerId}&start_date_time=2026-03-02T10:00:00Z`
      + `&end_date_time=2026-03-02T11:00:00Z&energy_kwh=10&time_zone=Europe/Amsterdam&country=${country}`);
    t.is(calc.status, 400, country);
    t.is(calc.body.query_param, 'country', JSON.stringify(calc.body));
  }
  t.is((await app.request('GET', '/main/v1/vat-rate?country=nl')).status, 200);
});
