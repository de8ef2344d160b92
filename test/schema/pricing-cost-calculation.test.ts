import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let eurA: string;
let eurB: string;
let ratePlan: { id: string; databaseId: string };
let onlyA: { id: string; databaseId: string };

async function addVersion(plan: string, validFrom: string, definition: unknown): Promise<void> {
  await data(app, `mutation ($plan: ID!, $input: RatePlanVersionInput!) { addRatePlanVersion(ratePlanId: $plan, input: $input) { id } }`, {
    plan, input: { validFrom, definition },
  });
}

test.before(async () => {
  app = await startTestApp();
  eurA = (await createAdministration(app)).id;
  eurB = (await createAdministration(app)).id;
  for (const [vatKind, percentage] of [['STANDARD', '21'], ['REDUCED', '9']]) {
    await data(app, 'mutation ($input: VatRateInput!) { createVatRate(input: $input) { id } }', {
      input: { country: 'NL', vatKind, percentage, validFrom: '2025-01-01T00:00:00Z' },
    });
  }
  const CREATE = 'mutation ($input: RatePlanInput!) { createRatePlan(input: $input) { id databaseId } }';
  ratePlan = (await data(app, CREATE, { input: { name: 'Shared', currency: 'EUR' } })).createRatePlan;
  await addVersion(ratePlan.id, '2026-01-01T00:00:00Z', {
    rates: { energy: { price: '0.30', step_size: '0.1' }, time: { price: '0.02', step_size: '5' }, min_price: '1.50' },
    rules: [{ name: 'DC', match: { current_type: 'DC' }, rates: { energy: { price: '0.59' } }, vat_kind: 'reduced' }],
  });
  onlyA = (await data(app, CREATE, { input: { name: 'Only A', currency: 'EUR', adminIds: [eurA] } })).createRatePlan;
  await addVersion(onlyA.id, '2020-01-01T00:00:00Z', { rates: { flat: { price: '2' } } });
});
test.after.always(async () => { await app?.close(); });

const CALC = `query ($input: CostCalculationInput!) { costCalculation(input: $input) {
  ratePlan { databaseId } ratePlanVersion { databaseId validFrom } currency rule { name index } vatRate { percentage vatKind }
  subtotals { kind volume billedVolume stepSize rate rateUnit amountExclVatUnrounded amountExclVat vatPercent vatKind vatCountry
    vatAmountUnrounded vatAmount amountInclVat }
  totalExclVat totalVat totalInclVat explanation annotations { name value } } }`;

const SESSION = {
  startDateTime: '2026-03-02T10:00:00+01:00', endDateTime: '2026-03-02T10:31:00+01:00', energyKwh: '10.01', country: 'NL', timeZone: 'Europe/Amsterdam',
};

function restCalc(params: Record<string, string>) {
  return app.request('GET', `/main/v1/msp-charge-cost-calculation?${new URLSearchParams(params)}`);
}

test('costCalculation prices like GET /msp-charge-cost-calculation, amounts as exact decimal strings', async (t) => {
  const { costCalculation: calc } = await data(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.id } });
  const rest = await restCalc({
    rate_plan_id: ratePlan.databaseId, start_date_time: SESSION.startDateTime, end_date_time: SESSION.endDateTime,
    energy_kwh: SESSION.energyKwh, country: 'NL', time_zone: SESSION.timeZone,
  });
  t.is(rest.status, 200);
  t.like(calc, {
    ratePlan: { databaseId: ratePlan.databaseId }, ratePlanVersion: { databaseId: rest.body.rate_plan_version_id, validFrom: '2026-01-01T00:00:00.000Z' },
    currency: 'EUR', rule: null, vatRate: { percentage: '21.00', vatKind: 'STANDARD' },
    totalExclVat: rest.body.total_excl_vat, totalVat: rest.body.total_vat, totalInclVat: rest.body.total_incl_vat,
  });
  t.is(calc.totalExclVat, '3.73');
  t.is(calc.totalInclVat, '4.52');
  t.deepEqual(calc.explanation, rest.body.explanation);
  t.deepEqual(Object.fromEntries(calc.annotations.map((a: any) => [a.name, a.value])), rest.body.annotations);
  t.deepEqual(calc.subtotals, rest.body.subtotals.map((s: any) => ({
    kind: s.kind, volume: s.volume, billedVolume: s.billed_volume, stepSize: s.step_size, rate: s.rate, rateUnit: s.rate_unit,
    amountExclVatUnrounded: s.amount_excl_vat_unrounded, amountExclVat: s.amount_excl_vat, vatPercent: s.vat_percent,
    vatKind: s.vat_kind.toUpperCase(), vatCountry: s.vat_country, vatAmountUnrounded: s.vat_amount_unrounded, vatAmount: s.vat_amount,
    amountInclVat: s.amount_incl_vat,
  })));
  t.like(calc.subtotals[0], { kind: 'energy', billedVolume: '10.10', amountExclVatUnrounded: '3.030000', vatAmountUnrounded: '0.636300' });

  const dc = await data(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.databaseId, currentType: 'DC' } });
  t.deepEqual(dc.costCalculation.rule, { name: 'DC', index: 0 });
  t.like(dc.costCalculation.subtotals[0], { rate: '0.59', vatKind: 'REDUCED', vatPercent: '9.00' });
  const exempt = await data(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.id, vatKind: 'EXEMPT', energyKwh: '1', endDateTime: SESSION.startDateTime } });
  t.like(exempt.costCalculation, { vatRate: null, totalExclVat: '1.50', totalInclVat: '1.50' });
  t.is(exempt.costCalculation.subtotals.at(-1).kind, 'min_price_adjustment');
});

test('planId prices with the subscription plan\'s rate plan', async (t) => {
  const CREATE = 'mutation ($input: SubscriptionPlanInput!) { createSubscriptionPlan(input: $input) { id databaseId ratePlan { databaseId } } }';
  const { createSubscriptionPlan: plan } = await data(app, CREATE, { input: { adminId: eurB, name: 'Priced', ratePlanId: ratePlan.id } });
  t.deepEqual(plan.ratePlan, { databaseId: ratePlan.databaseId });
  for (const planId of [plan.id, plan.databaseId]) {
    const { costCalculation } = await data(app, CALC, { input: { ...SESSION, planId } });
    t.is(costCalculation.ratePlan.databaseId, ratePlan.databaseId);
    t.is(costCalculation.totalExclVat, '3.73');
  }
  const unpriced = (await data(app, CREATE, { input: { adminId: eurB, name: 'Unpriced' } })).createSubscriptionPlan;
  const missing = await graphql(app, CALC, { input: { ...SESSION, planId: unpriced.id } });
  t.like(missing.body.errors?.[0].extensions, { code: 'rate_plan_missing', param: '$.input.planId' });
});

test('cpoCostExclVat reaches the rule script as REST cpo_cost_excl_vat does: the same price for the same input', async (t) => {
  const markup = `return { subtotals: [{ component: 'cpo_markup', label: 'CPO + 10 %', amount_excl_vat: dec.add(input.cpo_cost_excl_vat ?? '0', dec.percent(input.cpo_cost_excl_vat ?? '0', '10')) }] };`;
  const plan = (await data(app, 'mutation ($input: RatePlanInput!) { createRatePlan(input: $input) { id databaseId } }', { input: { name: 'Markup', currency: 'EUR' } })).createRatePlan;
  await addVersion(plan.id, '2025-01-01T00:00:00Z', { rates: {}, rules: [{ name: 'Markup', match: {}, rates: {}, script: markup }] });
  for (const cost of ['7.35', undefined]) {
    const rest = await restCalc({
      rate_plan_id: plan.databaseId, start_date_time: SESSION.startDateTime, end_date_time: SESSION.endDateTime,
      energy_kwh: SESSION.energyKwh, country: 'NL', time_zone: SESSION.timeZone, ...(cost === undefined ? {} : { cpo_cost_excl_vat: cost }),
    });
    t.is(rest.status, 200, JSON.stringify(rest.body));
    const { costCalculation: calc } = await data(app, CALC, { input: { ...SESSION, ratePlanId: plan.id, cpoCostExclVat: cost } });
    t.like(calc, { totalExclVat: rest.body.total_excl_vat, totalVat: rest.body.total_vat, totalInclVat: rest.body.total_incl_vat, rule: { name: 'Markup', index: 0 } });
    t.deepEqual(calc.explanation, rest.body.explanation);
    t.like(calc.subtotals[0], { kind: 'other', amountExclVat: rest.body.subtotals[0].amount_excl_vat });
  }
  t.is((await data(app, CALC, { input: { ...SESSION, ratePlanId: plan.id, cpoCostExclVat: '7.35' } })).costCalculation.totalExclVat, '8.09');
});

test('errors name the member of the input: bad decimals, both or no plan, unknown ids, no version, no VAT rate, more parking than the session lasts', async (t) => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ energyKwh: '1e3' }, 'validation_failed', '$.input.energyKwh'],
    [{ energyKwh: '-1' }, 'validation_failed', '$.input.energyKwh'],
    [{ powerKw: '22,5' }, 'validation_failed', '$.input.powerKw'],
    [{ timeZone: 'Mars/Olympus' }, 'validation_failed', '$.input.timeZone'],
    [{ country: 'NLD' }, 'validation_failed', '$.input.country'],
    [{ endDateTime: '2026-03-02T09:00:00+01:00' }, 'invalid_input', '$.input.endDateTime'],
    [{ ratePlanId: undefined }, 'invalid_input', '$.input.ratePlanId'],
    [{ planId: ratePlan.databaseId }, 'invalid_input', '$.input.ratePlanId'],
    [{ ratePlanId: '0190f5d2-0000-7000-8000-000000000000' }, 'not_found', '$.input.ratePlanId'],
    [{ ratePlanId: 'nonsense' }, 'not_found', '$.input.ratePlanId'],
    [{ ratePlanId: undefined, planId: '0190f5d2-0000-7000-8000-000000000000' }, 'not_found', '$.input.planId'],
    [{ startDateTime: '2025-12-31T23:00:00Z' }, 'rate_plan_version_missing', '$.input.startDateTime'],
    [{ country: 'FR', timeZone: 'Europe/Paris' }, 'vat_rate_missing', '$.input.country'],
    [{ parkingMinutes: '31.5' }, 'invalid_input', '$.input.parkingMinutes'],
    [{ cpoCostExclVat: '7,35' }, 'validation_failed', '$.input.cpoCostExclVat'],
    [{ cpoCostExclVat: '-1' }, 'validation_failed', '$.input.cpoCostExclVat'],
  ];
  for (const [change, code, param] of cases) {
    const response = await graphql(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.id, ...change } });
    t.is(response.status, 200);
    t.is(response.body.data, null, JSON.stringify(change));
    t.like(response.body.errors?.[0].extensions, { code, param }, JSON.stringify(change));
  }
  const notADate = await graphql(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.id, startDateTime: '2026-03-02T10:00:00' } });
  t.truthy(notADate.body.errors?.length);
});

test('a credential limited to another administration cannot price with a rate plan not shared with it; readonly may price', async (t) => {
  const scopedB = await app.credential({ adminIds: [eurB] });
  const denied = await graphql(app, CALC, { input: { ...SESSION, ratePlanId: onlyA.id } }, scopedB);
  t.like(denied.body.errors?.[0].extensions, { code: 'not_found', param: '$.input.ratePlanId' });
  const scopedA = await app.credential({ adminIds: [eurA] });
  const allowed = await data(app, CALC, { input: { ...SESSION, ratePlanId: onlyA.id } }, scopedA);
  t.is(allowed.costCalculation.totalExclVat, '2.00');
  const readonly = await app.credential({ role: 'readonly', adminIds: [eurB] });
  const shared = await data(app, CALC, { input: { ...SESSION, ratePlanId: ratePlan.id } }, readonly);
  t.is(shared.costCalculation.totalExclVat, '3.73');
});
