// Billed amounts are rounded once, to the cent, from the exact product or quotient (decisions
// "Money"). Found by probing: a quantity times a unit price, a prorated fee and a converted VAT
// total went through 6 decimals first, which rounded 1.014999984999 to 1.02 rather than 1.01.
// Also: a series code in another casing picks that series.
import test from 'ava';
import { proratedFee } from '../../../src/billing/sources/subscription-fee.source.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { createRoamingConnection, createRoamingPartner, setRoamingEnabled } from '../../helpers/roaming-factories.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);
const item = (adminId: string, partyId: string, fields: Record<string, unknown>) => ({
  time_zone: 'Europe/Amsterdam', date: '2026-11-03', party_id: partyId, admin_id: adminId, description: 'Thing',
  quantity: '1', unit: 'pcs', unit_price_excl_vat: '1.00', vat_kind: 'standard', ...fields,
});

test('a custom item\'s quantity × unit price, and a converted VAT total, are rounded once', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id, { vat_accounting_currency: 'USD' });
  await createSeries(app, admin.id);
  await ok('POST', `/administration/${admin.id}/billing-exchange-rate`, { currency: 'USD', date: '2026-11-01', rate: '1.11495' });
  const customer = await createCustomer(app, admin.id);
  // 0.999999 × 1.015001 = 1.014999984999: 1.01 (through 6 decimals: 1.015000, then 1.02).
  const small = await ok('POST', '/billing-custom-item', item(admin.id, customer.id, { quantity: '0.999999', unit_price_excl_vat: '1.015001' }));
  t.is(small.amount_excl_vat, '1.01');
  const other = await createCustomer(app, admin.id);
  const large = await ok('POST', '/billing-custom-item', item(admin.id, other.id, { unit_price_excl_vat: '109.57' }));
  const box = await ok('GET', `/billing-box/${large.box_id}`);
  // VAT 23.01 × 1.11495 = 25.6549995: 25.65 (through 6 decimals: 25.655000, then 25.66).
  t.is(box.total_vat_amount, '23.01');
  t.like(box.foreign_currency_totals, { currency: 'USD', total_vat_amount: '25.65' });
  t.is((await ok('GET', `/billing-box/${small.box_id}`)).total_amount_excl_vat, '1.01');
});

test('a prorated fee is rounded once: 10.074985 a month for 1 of 31 days is 0.32', (t) => {
  // 10.074985 / 31 = 0.3249995...: 0.32 (through 6 decimals: 0.325000, then 0.33).
  t.is(proratedFee({ amount_excl_vat: '10.074985', period: 'month' }, 'month', 1, 31), '0.32');
  t.is(proratedFee({ amount_excl_vat: '120.00', period: 'year' }, 'month', 31, 31), '10.00');
  t.is(proratedFee({ amount_excl_vat: '10.00', period: 'month' }, 'quarter', 92, 92), '30.00');
});

test('a custom item\'s series_indicator_code in another casing picks that series', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const named = await createSeries(app, admin.id, { code: 'Named' });
  const customer = await createCustomer(app, admin.id);
  const placed = await ok('POST', '/billing-custom-item', item(admin.id, customer.id, { series_indicator_code: 'NAMED' }));
  t.is((await ok('GET', `/billing-box/${placed.box_id}`)).billing_series_id, named.id);
});

test('a VAT rate\'s decimals are billed, all six: 1,000,000.00 at 19.12345 % is 191,234.50 of VAT', async (t) => {
  // Found by probing: items and roll-ups kept 4 decimals of the rate (19.1235 %: 191,235.00).
  await ok('POST', '/vat-rate', { country: 'DE', vat_kind: 'standard', percentage: '19.12345', valid_from: '2020-01-01T00:00:00Z' });
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const large = await ok('POST', '/billing-custom-item', item(admin.id, customer.id, { quantity: '1000000', vat_country: 'DE' }));
  const box = await ok('GET', `/billing-box/${large.box_id}`);
  t.is(box.total_vat_amount, '191234.50');
  t.deepEqual(box.rollups.map((r: any) => r.vat_percentage), ['19.12345']);
});

test('VAT is rounded once to the cent: 605.67 at 19.12345 % is 115.82 on the box, its roll-up and the roaming cost', async (t) => {
  // Found by probing: 605.67 × 19.12345 % = 115.824999615 went through 6 decimals (115.825000), then 115.83.
  await ok('POST', '/vat-rate', { country: 'AT', vat_kind: 'standard', percentage: '19.12345', valid_from: '2020-01-01T00:00:00Z' });
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const billed = await ok('POST', '/billing-custom-item', item(admin.id, customer.id, { unit_price_excl_vat: '605.67', vat_country: 'AT' }));
  const box = await ok('GET', `/billing-box/${billed.box_id}`);
  t.like(box, { total_vat_amount: '115.82', total_amount_incl_vat: '721.49' });
  t.deepEqual(box.rollups.map((r: any) => r.vat_amount), ['115.82']);
  // A roaming session's cost at that rate (reported by a provider-facilitated connection).
  await setRoamingEnabled(app, true);
  const hub = await createRoamingConnection(app, { kind: 'provider_facilitated' });
  const { evcoId } = await pricedSubscription(app, admin.id);
  const stored = await submitSession(app, sessionBody(evcoId, {
    cpo_id: (await createRoamingPartner(app)).cpo_ids[0], roaming_connection_id: hub.id, total_roaming_amount_excl_vat: '605.67',
    address: { street: 'Ring 1', city: 'Wien', postal_code: '1010', country: 'AT' }, time_zone: 'Europe/Vienna',
  }));
  t.like(await processed(app, stored.id), { calculated_roaming_amount_excl_vat: '605.67', calculated_roaming_amount_incl_vat: '721.49' });
});
