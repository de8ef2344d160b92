// Roaming cost calculation in the session pipeline over HTTP (roaming_enabled): agreement
// selection at the validity bounds, a provider-facilitated connection, a session priced from its
// OCPI tariff (with the reported/calculated difference annotated) and the drop-outs.
import { readdirSync, readFileSync } from 'node:fs';
import test from 'ava';
import { roundToCurrency } from '../../../src/money/decimal.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRoamingAgreement, createRoamingConnection, createRoamingPartner, partySuffix, setRoamingEnabled } from '../../helpers/roaming-factories.ts';
import { createRatePlan, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let evcoId: string;
test.before(async () => {
  app = await startTestApp();
  const admin = (await createAdministration(app)).id;
  evcoId = (await pricedSubscription(app, admin)).evcoId;
  await setRoamingEnabled(app, true);
});
test.after.always(async () => { await app?.close(); });

const tariff9 = JSON.parse(readFileSync(new URL('../../../../shared/vectors/ocpi-tariffs/ocpi-examples/tariff_9_025kwh_start__flat0.50_energy0.25.json',
  import.meta.url), 'utf8'));

async function session(overrides: Record<string, unknown>) {
  const stored = await submitSession(app, sessionBody(evcoId, overrides));
  return processed(app, stored.id);
}

const energyPlan = (price: string) => createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price } }, rules: [] } }]);

test('the agreement valid at the session start applies: a session starting exactly at valid_until uses the next agreement', async (t) => {
  const s = partySuffix();
  const partner = await createRoamingPartner(app, { cpo_ids: [`NL*${s}`] });
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const old = await createRoamingAgreement(app, connection.id, { valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-03-02T09:00:00Z', rate_plan_id: await energyPlan('0.30') });
  const next = await createRoamingAgreement(app, connection.id, { valid_from: '2026-03-02T09:00:00Z', rate_plan_id: await energyPlan('0.40'),
    external_reference: `RA-${s}` });

  const atBound = await session({ cpo_id: `nl-${s.toLowerCase()}`, start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T11:00:00+01:00' });
  t.like(atBound, { status: 'priced', roaming_agreement_id: next.id, calculated_roaming_amount_excl_vat: '4.00', calculated_roaming_amount_incl_vat: '4.84',
    total_roaming_amount_excl_vat: null });
  const [result] = await pricingResults(app, atBound.id);
  t.deepEqual(result.roaming_agreement, { id: next.id, external_reference: `RA-${s}`, connection_id: connection.id, partner_id: partner.id, role: 'msp' });

  const before = await session({ cpo_id: `NL${s}`, start_date_time: '2026-03-02T09:59:59+01:00', end_date_time: '2026-03-02T11:00:00+01:00',
    total_roaming_amount_excl_vat: '3.00' });
  t.like(before, { status: 'priced', roaming_agreement_id: old.id, calculated_roaming_amount_excl_vat: '3.00', total_roaming_amount_excl_vat: '3.00' });
  t.deepEqual((await pricingResults(app, before.id))[0].annotations, {}, 'no difference over 0.01');

  const tooEarly = await session({ cpo_id: `NL*${s}`, start_date_time: '2026-01-31T23:00:00Z', end_date_time: '2026-02-01T00:30:00Z' });
  t.like(tooEarly, { status: 'dropout', dropout_reason: 'roaming_agreement_missing', calculated_roaming_amount_excl_vat: null });
  // The missing agreement arrives: retrying the case prices the session with it.
  const earlier = await createRoamingAgreement(app, connection.id, { valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z',
    rate_plan_id: await energyPlan('0.20') });
  const retried = await app.request('POST', `/main/v1/msp-dropout-case/${tooEarly.dropout_case_id}/reprocess`, { body: { instruction: 'retry' } });
  t.is(retried.status, 200);
  t.like(await processed(app, tooEarly.id), { status: 'priced', roaming_agreement_id: earlier.id, calculated_roaming_amount_excl_vat: '2.00' });
});

test('a provider-facilitated connection needs no agreement: the cost is the reported amount', async (t) => {
  const partner = await createRoamingPartner(app);
  const hub = await createRoamingConnection(app, { kind: 'provider_facilitated' });
  const priced = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: hub.id, total_roaming_amount_excl_vat: '5.5' });
  t.like(priced, { status: 'priced', roaming_agreement_id: null, calculated_roaming_amount_excl_vat: '5.50', calculated_roaming_amount_incl_vat: '6.66',
    total_roaming_amount_excl_vat: '5.50' });
  t.is((await pricingResults(app, priced.id))[0].roaming_agreement, null);
  const nothing = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: hub.id });
  t.like(nothing, { status: 'dropout', dropout_reason: 'roaming_cost_failed' });
  const unknown = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: '018f0000-0000-7000-8000-000000000000', total_roaming_amount_excl_vat: '1' });
  t.like(unknown, { status: 'dropout', dropout_reason: 'roaming_connection_unknown' });
});

test('the OCPI historical_tariff prices the roaming cost before the rate plan; a difference with the reported amount is annotated', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const agreement = await createRoamingAgreement(app, connection.id, { rate_plan_id: await energyPlan('0.99') });
  const priced = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: connection.id, historical_tariff: tariff9,
    total_roaming_amount_excl_vat: '2.50' });
  // 0.50 flat + 10 kWh × 0.25 = 3.00 excl. VAT; NL standard 21 %: 0.63.
  t.like(priced, { status: 'priced', roaming_agreement_id: agreement.id, calculated_roaming_amount_excl_vat: '3.00',
    calculated_roaming_amount_incl_vat: '3.63', total_roaming_amount_excl_vat: '2.50' });
  const [result] = await pricingResults(app, priced.id);
  t.is(result.annotations.roaming_amount_difference, 'reported 2.50 excl. VAT, calculated 3.00 (difference 0.50)');
  t.true(result.explanation.some((line: string) => line.includes('OCPI historical_tariff')));
  const graph = await app.request('POST', '/graphql', { body: { query: `{ chargeSessions(first: 100) { edges { node { databaseId
    calculatedRoamingAmountExclVat calculatedRoamingAmountInclVat roamingAgreementId pricingResults { edges { node { roamingAgreement { databaseId partnerId connectionId role externalReference } annotations { name value } } } } } } } }` } });
  t.falsy(graph.body.errors);
  const node = graph.body.data.chargeSessions.edges.find((e: any) => e.node.databaseId === priced.id).node;
  t.like(node, { calculatedRoamingAmountExclVat: '3.00', calculatedRoamingAmountInclVat: '3.63', roamingAgreementId: agreement.id });
  const agreementOf = result.roaming_agreement;
  t.deepEqual(node.pricingResults.edges[0].node.roamingAgreement, {
    databaseId: agreementOf.id, partnerId: agreementOf.partner_id, connectionId: agreementOf.connection_id, role: agreementOf.role,
    externalReference: agreementOf.external_reference ?? null,
  });
  t.deepEqual(node.pricingResults.edges[0].node.annotations, Object.entries(result.annotations).map(([name, value]) => ({ name, value })));

  const otherCurrency = await session({ cpo_id: partner.cpo_ids[0], historical_tariff: { ...tariff9, currency: 'SEK' } });
  t.like(otherCurrency, { status: 'dropout', dropout_reason: 'roaming_cost_failed' });
  const noVat = await session({ cpo_id: partner.cpo_ids[0], historical_tariff: tariff9, address: { city: 'Oslo', country: 'NO' } });
  t.like(noVat, { status: 'dropout', dropout_reason: 'vat_rate_missing' });
});

// Found by probing: the note rounded the difference to the cent, so 3.0149 against 3.00 read "(difference -0.01)".
test('the roaming_amount_difference annotation shows the exact difference that made it', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  await createRoamingAgreement(app, connection.id, { rate_plan_id: await energyPlan('0.30') });
  // 10 kWh × 0.30 = 3.00 calculated.
  const close = await session({ cpo_id: partner.cpo_ids[0], total_roaming_amount_excl_vat: '3.0149' });
  t.is((await pricingResults(app, close.id))[0].annotations.roaming_amount_difference, 'reported 3.0149 excl. VAT, calculated 3.00 (difference -0.0149)');
  const far = await session({ cpo_id: partner.cpo_ids[0], total_roaming_amount_excl_vat: '2.5' });
  t.is((await pricingResults(app, far.id))[0].annotations.roaming_amount_difference, 'reported 2.50 excl. VAT, calculated 3.00 (difference 0.50)');
  const cent = await session({ cpo_id: partner.cpo_ids[0], total_roaming_amount_excl_vat: '2.99' });
  t.deepEqual((await pricingResults(app, cent.id))[0].annotations, {}, 'a difference of 0.01 is not annotated');
});

// Found by probing (as for the CPO cost a rule script sees): time read as float hours billed a step
// more (1/6 h became 600.0012 s), periods out of order more time than the session lasted.
test('the roaming cost from a historical_tariff bills exact seconds and charge periods in any order', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  await createRoamingAgreement(app, connection.id, { rate_plan_id: await energyPlan('0.99') });
  const timeTariff = (step: number) => ({ id: 'T-TIME', currency: 'EUR', elements: [{ price_components: [{ type: 'TIME', price: 6, step_size: step }] }] });
  const stepped = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: connection.id, historical_tariff: timeTariff(600),
    start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T10:10:00+01:00' });
  t.like(stepped, { status: 'priced', calculated_roaming_amount_excl_vat: '1.00' }, '10 min at 6.00/h in 10-minute steps: one step');
  const period = (at: string) => ({ start_date_time: at, dimensions: [{ type: 'energy', volume: '1' }] });
  const unordered = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: connection.id, historical_tariff: timeTariff(1),
    start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T13:00:00+01:00', total_energy_kwh: undefined,
    charge_periods: [period('2026-03-02T10:00:00+01:00'), period('2026-03-02T12:00:00+01:00'), period('2026-03-02T11:00:00+01:00')] });
  t.like(unordered, { status: 'priced', calculated_roaming_amount_excl_vat: '18.00' }, '3 h at 6.00/h, not 4 h');
});

test('a cpo_id of no roaming partner is not a roaming session', async (t) => {
  const priced = await session({ cpo_id: 'NL*ZZ9', total_roaming_amount_excl_vat: '1.00' });
  t.like(priced, { status: 'priced', roaming_agreement_id: null, calculated_roaming_amount_excl_vat: null });
});

// OCPI vectors as sessions: the periods the service builds from timestamps (charging, then parking)
// are cut where the tariff changes, as the CPO's CDR would be (spec-t14-switch-to-free-parking came
// to 0.98: 20 minutes of parking from 19:52 all priced as "before 20:00").
const CASES = new URL('../../../../shared/vectors/ocpi-tariffs/cases/', import.meta.url);
const WEEK_MS = 7 * 86_400_000;

/** The case as a session body, moved by whole weeks into 2026 (the test's contracts start then); null when a body cannot say it. */
function vectorSession(c: any, cpoId: string, connectionId: string) {
  const s = c.session;
  const dimensions = s.charging_periods.flatMap((p: any) => p.dimensions.map((d: any) => d.type));
  const states: string[] = (s.periods_detail ?? []).map((p: any) => p.state);
  if (!['stated', 'stated_rounded', 'derived', 'source_inconsistent'].includes(c.status) || c.tariff.currency !== 'EUR'
    || dimensions.some((d: string) => !['ENERGY', 'TIME', 'PARKING_TIME'].includes(d)) || states.join(',').includes('PARKING,CHARGING')) return null;
  const charging = s.charging_periods.filter((p: any) => p.dimensions.some((d: any) => d.type !== 'PARKING_TIME'));
  const parking = s.charging_periods.filter((p: any) => !charging.includes(p));
  if (parking.some((p: any) => p.dimensions.length > 1 || charging.some((q: any) => q.start_date_time > p.start_date_time))) return null;
  const idleSeconds = s.totals?.parking_seconds
    ?? Math.round(parking.reduce((sum: number, p: any) => sum + p.dimensions[0].volume * 3600, 0));
  const weeks = Math.ceil((Date.parse('2026-01-05T00:00:00Z') - Date.parse(s.start_date_time)) / WEEK_MS);
  const moved = (at: string) => new Date(Date.parse(at) + weeks * WEEK_MS).toISOString();
  const movedDate = (date?: string) => (date ? moved(`${date}T00:00:00Z`).slice(0, 10) : date);
  // The spec's step-size examples name country "XX", which OCPI does not know.
  const tariff = { ...c.tariff, country_code: c.tariff.country_code === 'XX' ? 'DE' : c.tariff.country_code, elements: c.tariff.elements.map((e: any) => (e.restrictions
    ? { ...e, restrictions: { ...e.restrictions, start_date: movedDate(e.restrictions.start_date), end_date: movedDate(e.restrictions.end_date) } } : e)) };
  const energy = (p: any) => String(p.dimensions.find((d: any) => d.type === 'ENERGY')?.volume ?? 0);
  return {
    cpo_id: cpoId, roaming_connection_id: connectionId, historical_tariff: tariff, time_zone: String(s.time_zone).split(' ')[0],
    start_date_time: moved(s.start_date_time), end_date_time: moved(s.end_date_time), total_idle_seconds: idleSeconds,
    total_energy_kwh: undefined, charge_periods: charging.map((p: any) => ({ start_date_time: moved(p.start_date_time), dimensions: [{ type: 'energy', volume: energy(p) }] })),
  };
}

test('every OCPI vector a session body can carry prices through the service as the vector says', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  await createRoamingAgreement(app, connection.id, { rate_plan_id: await energyPlan('0.99') });
  const cases = readdirSync(CASES).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(new URL(f, CASES), 'utf8')))
    .map((c) => ({ c, body: vectorSession(c, partner.cpo_ids[0], connection.id) })).filter((x) => x.body);
  t.true(cases.length >= 20, `${cases.length} vectors fit a session body`);
  t.true(cases.some((x) => x.c.id === 'spec-t14-switch-to-free-parking'));
  const stored = await Promise.all(cases.map((x) => submitSession(app, sessionBody(evcoId, x.body!))));
  const outcome = (s: any) => (s.status === 'priced' ? s.calculated_roaming_amount_excl_vat : `${s.status} ${s.dropout_reason}: ${s.dropout_message}`);
  const actual = Object.fromEntries(await Promise.all(cases.map(async (x, i) => [x.c.id, outcome(await processed(app, stored[i].id))])));
  t.deepEqual(actual, Object.fromEntries(cases.map((x) => [x.c.id, roundToCurrency(x.c.expected.total_cost.excl_vat)])));
});

test('a charge period the service prices by a tariff is cut where the tariff changes: clock times across DST, durations, kWh', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  await createRoamingAgreement(app, connection.id, { rate_plan_id: await energyPlan('0.99') });
  const cost = async (elements: unknown[], overrides: Record<string, unknown>) => {
    const s = await session({ cpo_id: partner.cpo_ids[0], roaming_connection_id: connection.id, historical_tariff: { id: 'T', currency: 'EUR', elements }, ...overrides });
    return s.status === 'priced' ? s.calculated_roaming_amount_excl_vat : `${s.dropout_reason}: ${s.dropout_message}`;
  };
  const energy = (price: number, restrictions?: unknown) => ({ price_components: [{ type: 'ENERGY', price, step_size: 1 }], restrictions });
  const time = (price: number, restrictions?: unknown) => ({ price_components: [{ type: 'TIME', price, step_size: 1 }], restrictions });
  // 10 kWh reported in one period from 16:00 to 18:00, the price going up at 17:00: 5 kWh at each price.
  t.is(await cost([energy(0.2, { end_time: '17:00' }), energy(0.3)], {
    start_date_time: '2026-03-02T16:00:00+01:00', end_date_time: '2026-03-02T18:00:00+01:00', total_energy_kwh: '10' }), '2.50');
  // 02:30 never comes on 29 March 2026 in Amsterdam (02:00 is 03:00): the later price runs from the switch, 1 h of 2 h.
  t.is(await cost([time(6, { start_time: '02:30', end_time: '05:00' })], {
    time_zone: 'Europe/Amsterdam', start_date_time: '2026-03-29T00:00:00Z', end_date_time: '2026-03-29T02:00:00Z' }), '6.00');
  // The first 30 minutes free (max_duration), then 6.00 an hour: 30 minutes of 1 h.
  t.is(await cost([time(0, { max_duration: 1800 }), time(6)], {}), '3.00');
  // Time billed once 5 of 10 kWh are charged (min_kwh): at constant power, the second half hour.
  t.is(await cost([time(6, { min_kwh: 5 })], { total_energy_kwh: '10' }), '3.00');
  // 1,100 changes of the clock price in 275 days: the tariff cannot price it (each change a period to explain).
  t.regex(await cost([time(1, { start_time: '06:00', end_time: '12:00' }), time(2, { start_time: '18:00', end_time: '20:00' })], {
    start_date_time: '2026-01-01T00:00:00Z', end_date_time: '2026-10-03T00:00:00Z' }), /^roaming_cost_failed: .*changes more than 1000 times/);
});
