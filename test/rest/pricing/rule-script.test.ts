import test, { type ExecutionContext } from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRatePlan, ensureVatRate, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const MARKUP = `
  if (input.cpo_cost_excl_vat === null) throw new Error('no CPO price');
  const markup = dec.percent(input.cpo_cost_excl_vat, '10');
  return {
    annotations: { cpo_price: input.cpo_cost_excl_vat, markup },
    subtotals: [{ component: 'cpo_markup', label: 'CPO price + 10 %', amount_excl_vat: dec.add(input.cpo_cost_excl_vat, markup) }],
  };`;

const definition = (script: string) => ({ rates: {}, rules: [{ name: 'Roaming', match: { cpo_party_ids: ['DE*ROA'] }, rates: {}, script }] });

function calc(ratePlanId: string, extra: Record<string, string>) {
  const query = new URLSearchParams({
    rate_plan_id: ratePlanId, start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T11:00:00+01:00',
    energy_kwh: '10', country: 'NL', time_zone: 'Europe/Amsterdam', cpo_party_id: 'DE*ROA', ...extra,
  });
  return app.request('GET', `/main/v1/msp-charge-cost-calculation?${query}`);
}

test('a rule script adds an other subtotal and annotations: CPO price + 10 %', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const r = await calc(ratePlanId, { cpo_cost_excl_vat: '7.35' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.annotations, { cpo_price: '7.35', markup: '0.735' });
  t.like(r.body.subtotals[0], { kind: 'other', component: 'cpo_markup', label: 'CPO price + 10 %', amount_excl_vat_unrounded: '8.085000', amount_excl_vat: '8.09', amount_incl_vat: '9.78' });
  t.is(r.body.total_excl_vat, '8.09');
  t.true(r.body.explanation.some((line: string) => line.includes('annotation markup: 0.735')));
  const missing = await calc(ratePlanId, {});
  t.is(missing.status, 400);
  t.is(missing.body.code, 'rule_script_failed');
  t.regex(missing.body.message, /no CPO price/);
});

test('a script that does not compile is refused when the version is written', async (t) => {
  const plan = await app.request('POST', '/main/v1/rate-plan', { body: { name: 'Broken', currency: 'EUR' } });
  const r = await app.request('POST', `/main/v1/rate-plan/${plan.body.id}/version`, {
    body: { valid_from: '2026-01-01T00:00:00Z', definition: definition('return {') },
  });
  t.is(r.status, 400);
  t.is(r.body.param, '$.definition.rules[0].script');
  const versions = await app.request('GET', `/main/v1/rate-plan/${plan.body.id}`);
  t.is(versions.status, 200);
});

test('a script that loops forever fails the calculation and drops the session out', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition('while (true) {}') }]);
  const started = Date.now();
  const r = await calc(ratePlanId, { cpo_cost_excl_vat: '1' });
  t.is(r.body.code, 'rule_script_failed');
  t.regex(r.body.message, /CPU budget/);
  t.true(Date.now() - started < 3000);

  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', total_roaming_amount_excl_vat: '3.00' }));
  const session = await processed(app, stored.id);
  t.is(session.status, 'dropout');
  t.is(session.dropout_reason, 'rule_script_failed');
  t.regex(session.dropout_message, /CPU budget/);
});

test('the pipeline passes the roaming amount to the script and keeps its annotations', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', total_roaming_amount_excl_vat: '4.20' }));
  const session = await processed(app, stored.id);
  t.is(session.status, 'priced', JSON.stringify(session));
  const [result] = await pricingResults(app, stored.id);
  t.deepEqual(result.annotations, { cpo_price: '4.20', markup: '0.42' });
  t.like(result.subtotals[0], { kind: 'other', rate_label: 'CPO price + 10 %', amount_excl_vat: '4.62' });
  const deprecated = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', total_cost_excl_vat: '1.00' }));
  await processed(app, deprecated.id);
  t.is((await pricingResults(app, deprecated.id))[0].total_excl_vat, '1.10', 'the deprecated total_cost_excl_vat still works');
});

test('without a stated roaming amount, the CPO cost comes from the OCPI historical_tariff', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const tariff = (currency: string) => ({
    id: 'T-ROA-1', currency,
    elements: [{ price_components: [{ type: 'ENERGY', price: 0.25, step_size: 1 }, { type: 'FLAT', price: 0.5, step_size: 1 }, { type: 'TIME', price: 1.2, step_size: 60 }] }],
  });
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', historical_tariff: tariff('EUR') }));
  const session = await processed(app, stored.id);
  t.is(session.status, 'priced', JSON.stringify(session));
  const [result] = await pricingResults(app, stored.id);
  t.is(result.annotations.cpo_price, '4.20', '10 kWh × 0.25 + 0.50 + 1 h × 1.20');
  t.true(result.explanation.some((line: string) => line.includes('historical_tariff T-ROA-1: 4.20 EUR')));
  t.is(result.total_excl_vat, '4.62');
  const dollars = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', historical_tariff: tariff('USD') }));
  t.is((await processed(app, dollars.id)).dropout_reason, 'historical_tariff_currency');
});

// Found by probing: the periods' time was read as float hours rounded to 6 decimals (1/6 h became
// 600.0012 s), which step_size rounded up to one step more.
test('historical_tariff: time and parking are exact seconds, so a step that fits exactly is billed once', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const cpoCost = async (component: Record<string, unknown>, overrides: Record<string, unknown>) => {
    const tariff = { id: 'T-STEP', currency: 'EUR', elements: [{ price_components: [component] }] };
    const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', historical_tariff: tariff, ...overrides }));
    const session = await processed(app, stored.id);
    t.is(session.status, 'priced', JSON.stringify(session));
    return (await pricingResults(app, stored.id))[0].annotations.cpo_price;
  };
  const tenMinutes = { start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T10:10:00+01:00' };
  t.is(await cpoCost({ type: 'TIME', price: 6, step_size: 600 }, tenMinutes), '1.00', '10 min at 6.00/h in 10-minute steps: one step, not two');
  t.is(await cpoCost({ type: 'TIME', price: 60, step_size: 60 }, tenMinutes), '10.00', '10 min at 1.00/min in 1-minute steps: 10, not 11');
  t.is(await cpoCost({ type: 'PARKING_TIME', price: 6, step_size: 300 }, { total_idle_seconds: 600 }), '1.00',
    '600 s of parking at 6.00/h in 5-minute steps: two steps, not three');
});

// Found by probing: each period's time ran until the next one in the received order, so periods
// 10:00, 12:00, 11:00 of a 10:00–13:00 session were priced as 4 h.
test('historical_tariff: charge periods in any order price the time the session lasts', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const tariff = { id: 'T-TIME', currency: 'EUR', elements: [{ price_components: [{ type: 'TIME', price: 1, step_size: 1 }] }] };
  const period = (at: string) => ({ start_date_time: at, dimensions: [{ type: 'energy', volume: '1' }] });
  const stored = await submitSession(app, sessionBody(sub.evcoId, {
    cpo_id: 'DE*ROA', start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T13:00:00+01:00', total_energy_kwh: undefined,
    charge_periods: [period('2026-03-02T10:00:00+01:00'), period('2026-03-02T12:00:00+01:00'), period('2026-03-02T11:00:00+01:00')], historical_tariff: tariff,
  }));
  t.is((await processed(app, stored.id)).status, 'priced');
  t.is((await pricingResults(app, stored.id))[0].annotations.cpo_price, '3.00', 'a 3 h session at 1.00/h');
});

// Found by probing: an unknown or lower-case dimension was priced at 0.00, a string price taken as a
// price, a negative one priced at -2.50.
test('a historical_tariff whose elements do not conform drops the session out (historical_tariff_invalid)', async (t) => {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId });
  const components: unknown[] = [
    { type: 'KWH', price: 0.25, step_size: 1 }, { type: 'energy', price: 0.25, step_size: 1 }, { type: 'ENERGY', price: '0.25', step_size: 1 },
    { type: 'ENERGY', price: -0.25, step_size: 1 }, { type: 'ENERGY', price: 1e300, step_size: 1 }, { type: 'ENERGY', price: 0.25, step_size: 1, vat: 121 },
  ];
  for (const component of components) {
    const tariff = { id: 'T-BAD', currency: 'EUR', elements: [{ price_components: [component] }] };
    const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', historical_tariff: tariff }));
    const session = await processed(app, stored.id);
    t.like(session, { status: 'dropout', dropout_reason: 'historical_tariff_invalid' }, JSON.stringify(component));
  }
  const dated = { id: 'T-DATE', currency: 'EUR', elements: [{ price_components: [{ type: 'ENERGY', price: 0.25, step_size: 1 }], restrictions: { start_date: '2026-02-30' } }] };
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', historical_tariff: dated }));
  t.is((await processed(app, stored.id)).dropout_reason, 'historical_tariff_invalid', 'a date the calendar does not have');
});

test('array built-ins over a huge length are stopped at once, not run for hours past the budget; small arrays work', async (t) => {
  for (const script of ["Array.prototype.indexOf.call({ length: 2 ** 40 }, 'x'); return {};", "Array.prototype.join.call({ length: 2 ** 40 }, ''); return {};",
    'const a = []; a.length = 2 ** 31; a.lastIndexOf(1); return {};']) {
    const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(script) }]);
    const started = Date.now();
    const r = await calc(ratePlanId, { cpo_cost_excl_vat: '1' });
    t.like(r.body, { code: 'rule_script_failed' }, script);
    t.regex(r.body.message, /at most 1000000 elements/);
    t.true(Date.now() - started < 3000, script);
  }
  const fine = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition("return { annotations: { n: String([3, 1, 2].sort().indexOf(2)) } };") }]);
  t.deepEqual((await calc(fine, { cpo_cost_excl_vat: '1' })).body.annotations, { n: '1' });
});

/** A rate plan whose rule runs `script`: the cost calculation is rule_script_failed, its message matching `refusal`. */
async function assertScriptRefused(t: ExecutionContext, script: string, refusal: RegExp) {
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(script) }]);
  const r = await calc(ratePlanId, { cpo_cost_excl_vat: '1' });
  t.like(r.body, { code: 'rule_script_failed' }, script);
  t.regex(r.body.message, refusal, script);
}

// Found by probing (2026-11-29): QuickJS's string search is naive and runs without interrupt checks;
// one indexOf over a 4 MiB string would have held the thread for about an hour.
test('string and typed-array built-ins refuse inputs beyond their bound; strings of annotation size work', async (t) => {
  for (const [script, refusal] of [
    ["const s = 'a'.repeat(1 << 22); s.indexOf('a'.repeat(1 << 21) + 'b'); return {};", /at most 4096 characters/],
    ["let s = 'a'; for (let i = 0; i < 22; i++) s += s; return { annotations: { n: String(s.includes('b')) } };", /at most 4096 characters/],
    ["return { annotations: { n: String(/b/.test('a'.repeat(5000))) } };", /at most 4096 characters/],
    ['new Uint8Array(1 << 23).sort(); return {};', /at most 1000000 elements/],
    // What the checks use cannot be replaced by the script.
    ["Array.prototype.some = () => false; Function.prototype.apply = () => -1; 'a'.repeat(1 << 20).indexOf('b'); return {};", /at most 4096 characters/],
  ] as const) await assertScriptRefused(t, script, refusal);
  const fine = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(
    "const s = 'ab'.repeat(2048); return { annotations: { n: String(s.indexOf('ba')), u: 'x'.toUpperCase(), p: 'x'.padEnd(1000, '-').slice(-3) } };",
  ) }]);
  t.deepEqual((await calc(fine, { cpo_cost_excl_vat: '1' })).body.annotations, { n: '1', u: 'X', p: '---' });
});

// Found by probing (2026-11-29): a Promise, a Map or a class instance read as {} (an async script's lines were
// lost without a word); a line of 10^14 failed the session's batch on the items' columns; a label cut at 255
// inside a surrogate pair failed as a lone surrogate.
test('a script answers a plain object, lines of at most 1,000,000 either way, and a long label is cut whole', async (t) => {
  for (const [script, refusal] of [
    ["return (async () => ({ subtotals: [{ component: 'markup', amount_excl_vat: '5.00' }] }))();", /plain one, not Promise/],
    ['return new Map();', /plain one, not Map/],
    ["return { subtotals: [{ component: 'x', amount_excl_vat: '99999999999999.999999' }] };", /at most 1000000 either way/],
    ["return { subtotals: [{ component: 'x', amount_excl_vat: '-1000000.01' }] };", /at most 1000000 either way/],
  ] as const) await assertScriptRefused(t, script, refusal);
  const label = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(
    "return { subtotals: [{ component: 'x', label: 'a'.repeat(254) + '\\u{1F600}', amount_excl_vat: '-1000000' }] };",
  ) }]);
  const labelled = await calc(label, { cpo_cost_excl_vat: '1' });
  t.is(labelled.status, 200, JSON.stringify(labelled.body));
  t.true(JSON.stringify(labelled.body).includes(`"${'a'.repeat(254)}"`), JSON.stringify(labelled.body).slice(0, 600));
});

test('what a script returns or throws is stored safely: a NUL or a lone surrogate drops only its session out, others are priced', async (t) => {
  const cases = [
    "return { annotations: { note: 'a\\u0000b' } };",
    "return { annotations: { note: 'x\\ud800y' } };",
    "return { subtotals: [{ component: 'x', label: 'a\\u0000b', amount_excl_vat: '1.00' }] };",
    "throw new Error('bad\\u0000byte' + 'x'.repeat(100000));",
  ];
  const plain = await pricedSubscription(app, adminId);
  for (const script of cases) {
    const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(script) }]);
    const sub = await pricedSubscription(app, adminId, { ratePlanId });
    const hostile = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', total_roaming_amount_excl_vat: '3.00' }));
    const other = await submitSession(app, sessionBody(plain.evcoId));
    const dropped = await processed(app, hostile.id);
    t.like(dropped, { status: 'dropout', dropout_reason: 'rule_script_failed' }, script);
    t.false(dropped.dropout_message.includes('\u0000'));
    t.true(dropped.dropout_message.length <= 2000);
    t.is((await processed(app, other.id)).status, 'priced', script);
  }
});

// Found by probing (2026-11-29): the bounds on the built-ins' inputs were passed three ways, and one native
// call ran past the budget for seconds (2 ** 40 elements: hours), holding the thread that serves requests or
// the one that processes every administration's sessions. The script thread's deadline stops whatever the
// bounds miss: the calculation fails, the session drops out, and the next script runs on a fresh thread.
const PAST_THE_BOUNDS = [
  // The bound reads the length once (1), the built-in again (2 ** 29).
  `let first = true;
  const o = { get length() { if (first) { first = false; return 1; } return 2 ** 29; } };
  Array.prototype.indexOf.call(o, 1);
  return { annotations: { done: 'yes' } };`,
  // An object receiver whose toString answers 4 MB (now refused by the bound itself).
  `const big = 'a'.repeat(4000000);
  String.prototype.indexOf.call({ toString: () => big }, 'a'.repeat(4000) + 'b');
  return { annotations: { done: 'yes' } };`,
  // BigInt#toString of a ~1 Mbit number runs seconds natively; a sort without a comparator converts at every comparison.
  `const x = (1n << 1040000n) - 1n;
  [x, x - 1n, x - 2n].sort();
  return { annotations: { done: 'yes' } };`,
];

test.serial('a built-in call the bounds miss fails the calculation at the script thread\'s deadline; the next script runs', async (t) => {
  // The BigInt case runs to the deadline in the session test below (each bypass has its own test in
  // test/src/pricing/script/run-rule-script.test.ts): the calculation takes the other two.
  for (const script of PAST_THE_BOUNDS.slice(0, 2)) {
    const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(script) }]);
    const r = await calc(ratePlanId, { cpo_cost_excl_vat: '1' });
    t.is(r.status, 400, script);
    t.like(r.body, { code: 'rule_script_failed' }, script);
    t.regex(r.body.message, /the script of rule "Roaming" failed: (it ran past its time limit|RangeError: strings that rule scripts search)/, script);
  }
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const r = await calc(ratePlanId, { cpo_cost_excl_vat: '7.35' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.annotations, { cpo_price: '7.35', markup: '0.735' });
});

test.serial('a session whose script runs past the deadline drops out; the processing thread goes on with the next', async (t) => {
  const hostile = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(PAST_THE_BOUNDS[2]) }]);
  const sub = await pricedSubscription(app, adminId, { ratePlanId: hostile });
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_id: 'DE*ROA', total_roaming_amount_excl_vat: '3.00' }));
  t.like(await processed(app, stored.id), { status: 'dropout', dropout_reason: 'rule_script_failed' });
  t.regex((await processed(app, stored.id)).dropout_message, /ran past its time limit/);
  const markup = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: definition(MARKUP) }]);
  const next = await pricedSubscription(app, adminId, { ratePlanId: markup });
  const priced = await submitSession(app, sessionBody(next.evcoId, { cpo_id: 'DE*ROA', total_roaming_amount_excl_vat: '4.20' }));
  t.is((await processed(app, priced.id)).status, 'priced');
  t.deepEqual((await pricingResults(app, priced.id))[0].annotations, { cpo_price: '4.20', markup: '0.42' });
});
