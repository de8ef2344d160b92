// MSP recurring fees as a property, over HTTP: random sequences of subscriptions created (back-dated
// or not), their bounds moved and their plan or customer corrected (always with
// `recurring_cost_correction: true`), made defunct (which bills nothing), months started by the period start and their review-sets
// closed, in time order (August to October 2026, Europe/Amsterdam). After each sequence, for every
// subscription and every month already started:
//   - what the boxes bill of it for that month nets to its fee for the days it is valid in the month
//     (local date of valid_from inclusive to local date of valid_until exclusive, over the month's
//     days, rounded once), billed to its customer and to nobody else;
//   - a month not started bills nothing;
//   - a closed box never changes.
// The oracle is written here, apart from the billing code. Each sequence has an administration of its
// own; sequences run one after another (the period start bills every administration of the database).
import test from 'ava';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import { closeMonth, expectedFee, feeCall, FEE_MOMENTS as MOMENTS, FEE_MONTHS as MONTHS, feeSequenceProblems, startNextMonth, type FeeWorld } from '../../helpers/fee-billing.ts';

const RUNS = Number(process.env.SVC_FEE_PROPERTY_RUNS ?? 16);
const SEED = Number(process.env.SVC_PROPERTY_SEED ?? 20261128);
const MAX_STEPS = 12;
/** The fees of a sequence's two plans. */
const FEES = ['10.00', '12.00'];

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });


type Step =
  | { op: 'create'; customer: number; plan: number; from: number; until: number | null }
  | { op: 'bounds'; sub: number; from: number | null; until: number | null }
  | { op: 'correct'; sub: number; at: number; customer: number | null; plan: number | null }
  | { op: 'defunct'; sub: number }
  | { op: 'start' }
  | { op: 'close'; month: number };

const moment = fc.nat(MOMENTS.length - 1);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('create' as const), customer: fc.nat(1), plan: fc.nat(1), from: moment, until: fc.option(moment, { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('bounds' as const), sub: fc.nat(5), from: fc.option(moment, { nil: null }), until: fc.option(moment, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('correct' as const), sub: fc.nat(5), at: moment, customer: fc.option(fc.nat(1), { nil: null }), plan: fc.option(fc.nat(1), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('defunct' as const), sub: fc.nat(5) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('start' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('close' as const), month: fc.nat(MONTHS.length - 1) }) },
);
const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: MAX_STEPS, size: 'max' });

interface Sub { id: string; customer: number; plan: number; from: Date; until: Date | null; defunct?: boolean }
interface World extends FeeWorld {
  customers: { id: string }[];
  plans: { id: string }[];
  subs: Sub[];
}

const call = (method: string, path: string, body?: unknown) => feeCall(app, method, path, body);

async function newWorld(): Promise<World> {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const plans = [];
  for (const fee of FEES) plans.push(await createSubscriptionPlan(app, admin.id, { recurring_costs: [{ description: 'Card fee', amount_excl_vat: fee, period: 'month' }] }));
  const customers = [await createCustomer(app, admin.id), await createCustomer(app, admin.id)];
  return { adminId: admin.id, seriesId: series.id, customers, plans, subs: [], started: 0, closed: new Set(), log: [] };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function apply(w: World, step: Step): Promise<void> {
  switch (step.op) {
    case 'create': {
      const from = MOMENTS[step.from];
      const until = step.until === null ? null : MOMENTS[step.until];
      if (until && until <= from) return;
      const r = await call('POST', '/msp-token-subscription', {
        plan_id: w.plans[step.plan].id, customer_id: w.customers[step.customer].id, valid_from: iso(from), ...(until ? { valid_until: iso(until) } : {}),
      });
      if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
      w.subs.push({ id: r.body.id, customer: step.customer, plan: step.plan, from, until });
      w.log.push(`create ${r.body.id} c${step.customer} p${step.plan} ${iso(from)}..${iso(until)}`);
      return;
    }
    case 'bounds': {
      const sub = w.subs[step.sub % Math.max(1, w.subs.length)];
      if (!sub || (step.from === null && step.until === null)) return;
      const from = step.from === null ? sub.from : MOMENTS[step.from];
      const until = step.until === null ? sub.until : MOMENTS[step.until];
      if (until && until <= from) return;
      const body: Record<string, unknown> = { recurring_cost_correction: true };
      if (step.from !== null) body.valid_from = iso(from);
      if (step.until !== null) body.valid_until = iso(until);
      const r = await call('POST', `/msp-token-subscription/${sub.id}`, body);
      w.log.push(`bounds ${sub.id} ${JSON.stringify(body)} -> ${r.status}${r.status === 200 ? '' : ` ${r.body.code} ${r.body.message}`}`);
      // A subscription split by a correction keeps its bounds where they meet its successor: refused, nothing changes.
      if (r.status !== 200) return;
      sub.from = from;
      sub.until = until;
      return;
    }
    case 'correct': {
      const sub = w.subs[step.sub % Math.max(1, w.subs.length)];
      if (!sub || (step.customer === null && step.plan === null)) return;
      const at = MOMENTS[step.at];
      if (at <= sub.from || (sub.until && at >= sub.until)) return;
      const body: Record<string, unknown> = { valid_from: iso(at), recurring_cost_correction: true };
      if (step.customer !== null) body.new_customer_id = w.customers[step.customer].id;
      if (step.plan !== null) body.new_plan_id = w.plans[step.plan].id;
      const r = await call('POST', `/msp-token-subscription/${sub.id}/plan-or-customer-correction`, body);
      w.log.push(`correct ${sub.id} ${JSON.stringify(body)} -> ${r.status}${r.status === 200 ? ` ${r.body.new_subscription.id}` : ` ${r.body.code} ${r.body.message}`}`);
      if (r.status !== 200) return;
      w.subs.push({ id: r.body.new_subscription.id, customer: step.customer ?? sub.customer, plan: step.plan ?? sub.plan, from: at, until: sub.until });
      sub.until = at;
      return;
    }
    case 'defunct': {
      const sub = w.subs[step.sub % Math.max(1, w.subs.length)];
      if (!sub) return;
      const r = await call('PUT', `/msp-token-subscription/${sub.id}/defunct`);
      w.log.push(`defunct ${sub.id} -> ${r.status}`);
      if (r.status !== 200) throw new Error(`defunct: ${r.status} ${JSON.stringify(r.body)}`);
      sub.defunct = true;
      return;
    }
    case 'start': return startNextMonth(app, w);
    case 'close': return closeMonth(app, w, step.month);
  }
}

/** What is due: every subscription's fee of every month started, to its customer; a defunct one's nothing. */
function due(w: World): Map<string, string> {
  const expected = new Map<string, string>();
  for (const sub of w.subs) {
    if (sub.defunct) continue;
    for (let month = 0; month < w.started; month++) {
      const fee = expectedFee(FEES[sub.plan], sub.from, sub.until, month);
      if (fee !== '0.00') expected.set(`${sub.id}|${MONTHS[month].slice(0, 7)}|${w.customers[sub.customer].id}`, fee);
    }
  }
  return expected;
}

const KIND = 'msp_subscription_fee';

test.serial('MSP recurring fees: every started month bills each subscription its days once, to its customer', async (t) => {
  let runs = 0;
  await fc.assert(fc.asyncProperty(stepsArb, async (steps) => {
    const w = await newWorld();
    const problems = await feeSequenceProblems(app, w, KIND, steps, apply, due);
    runs++;
    if (problems.length) t.log(w.log.join('\n'));
    t.deepEqual(problems, [], `sequence:\n${w.log.join('\n')}`);
    return problems.length === 0;
  }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
  t.is(runs, RUNS);
});
