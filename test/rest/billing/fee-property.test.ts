// MSP recurring fees as a property, over HTTP: random sequences of subscriptions created (back-dated
// or not), their bounds moved and their plan or customer corrected (always with
// `recurring_cost_correction: true`), months started by the period start and their review-sets
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
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

const RUNS = Number(process.env.SVC_FEE_PROPERTY_RUNS ?? 24);
const SEED = Number(process.env.SVC_PROPERTY_SEED ?? 20261128);
const MAX_STEPS = 12;
const ZONE = 'Europe/Amsterdam';
/** The months a sequence may start, in order (their first local day), and the fees of its two plans. */
const MONTHS = ['2026-08-01', '2026-09-01', '2026-10-01'];
const FEES = ['10.00', '12.00'];

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });

/** A local moment in Amsterdam (summer time all of these months: UTC+2). */
const local = (date: string, hour: number) => new Date(Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00+02:00`));
/** Moments from mid-July to November: local midnights and afternoons, so the day boundary rule is met both ways. */
const MOMENTS = ['2026-07-20', '2026-08-01', '2026-08-10', '2026-08-31', '2026-09-01', '2026-09-15', '2026-09-30', '2026-10-01', '2026-10-16', '2026-10-31', '2026-11-05']
  .flatMap((d) => [local(d, 0), local(d, 15)]);

type Step =
  | { op: 'create'; customer: number; plan: number; from: number; until: number | null }
  | { op: 'bounds'; sub: number; from: number | null; until: number | null }
  | { op: 'correct'; sub: number; at: number; customer: number | null; plan: number | null }
  | { op: 'start' }
  | { op: 'close'; month: number };

const moment = fc.nat(MOMENTS.length - 1);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('create' as const), customer: fc.nat(1), plan: fc.nat(1), from: moment, until: fc.option(moment, { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('bounds' as const), sub: fc.nat(5), from: fc.option(moment, { nil: null }), until: fc.option(moment, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('correct' as const), sub: fc.nat(5), at: moment, customer: fc.option(fc.nat(1), { nil: null }), plan: fc.option(fc.nat(1), { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('start' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('close' as const), month: fc.nat(MONTHS.length - 1) }) },
);
const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: MAX_STEPS, size: 'max' });

interface Sub { id: string; customer: number; plan: number; from: Date; until: Date | null }
interface World {
  adminId: string;
  seriesId: string;
  customers: { id: string }[];
  plans: { id: string }[];
  subs: Sub[];
  started: number;
  closed: Set<number>;
  log: string[];
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status >= 500) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return { status: r.status, body: r.body };
}

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
    case 'start': {
      if (w.started === MONTHS.length) return;
      await startCurrentPeriods(scopedEm(app.orm), local(MONTHS[w.started], 12));
      w.log.push(`start ${MONTHS[w.started]}`);
      w.started++;
      return;
    }
    case 'close': {
      if (step.month >= w.started || w.closed.has(step.month)) return;
      const sets = (await call('GET', `/billing-review-set?admin_id=${w.adminId}`)).body.items as any[];
      const set = sets.find((s) => s.billing_series_id === w.seriesId && s.period_from === local(MONTHS[step.month], 0).toISOString());
      if (!set) throw new Error(`no review-set of ${MONTHS[step.month]}: ${JSON.stringify(sets)}`);
      await reviewSetDone(app, set.id, 'close');
      w.closed.add(step.month);
      w.log.push(`close ${MONTHS[step.month]}`);
      return;
    }
  }
}

/** Local date (YYYY-MM-DD) of a moment in Amsterdam. */
const localDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The oracle: a subscription's fee for a month, by local days, rounded half up once. */
function expectedFee(w: World, sub: Sub, month: number): string {
  const first = dayNumber(MONTHS[month]);
  const next = new Date(Date.parse(`${MONTHS[month]}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  const end = next.getTime() / 86_400_000;
  const from = Math.max(first, dayNumber(localDate(sub.from)));
  const until = Math.min(end, sub.until ? dayNumber(localDate(sub.until)) : end);
  const days = Math.max(0, until - from);
  return new Decimal(FEES[sub.plan]).mul(days).div(end - first).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

interface Billed { boxId: string; boxState: string; partyId: string; subjectId: string; amount: string }

async function billed(w: World): Promise<Billed[]> {
  const items: Billed[] = [];
  for (let after: string | null = null; ;) {
    const r: { status: number; body: any } = await app.request('POST', '/graphql', {
      body: {
        query: `query($admin: ID!, $after: String) { billingBoxes(adminId: $admin, first: 10, after: $after) {
          edges { node { databaseId state partyId rollups { itemCount items(first: 100) { subjectId sourceKind amountExclVat } } } }
          pageInfo { hasNextPage endCursor } } }`,
        variables: { admin: w.adminId, after },
      },
    });
    if (r.status !== 200 || r.body.errors) throw new Error(JSON.stringify(r.body));
    const page: { edges: { node: any }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } = r.body.data.billingBoxes;
    for (const { node } of page.edges) {
      for (const rollup of node.rollups) {
        if (rollup.itemCount > rollup.items.length) throw new Error(`roll-up of box ${node.databaseId} has ${rollup.itemCount} items`);
        for (const item of rollup.items) {
          if (item.sourceKind !== 'msp_subscription_fee') continue;
          items.push({ boxId: node.databaseId, boxState: node.state, partyId: node.partyId, subjectId: item.subjectId, amount: item.amountExclVat });
        }
      }
    }
    if (!page.pageInfo.hasNextPage) return items;
    after = page.pageInfo.endCursor;
  }
}

/** Closed boxes as they stood when their month closed: totals and items. */
async function closedBoxes(w: World): Promise<Map<string, string>> {
  const items = await billed(w);
  const boxes = new Map<string, string>();
  for (const item of items) {
    if (item.boxState === 'OPEN') continue;
    boxes.set(item.boxId, `${boxes.get(item.boxId) ?? ''}${item.subjectId}=${item.amount};`);
  }
  return boxes;
}

async function check(w: World, frozen: Map<string, string>): Promise<string[]> {
  const problems: string[] = [];
  const items = await billed(w);
  const net = new Map<string, Decimal>();
  for (const item of items) {
    const [subId, label] = item.subjectId.split('/');
    const key = `${subId}|${label}|${item.partyId}`;
    net.set(key, (net.get(key) ?? new Decimal(0)).add(item.amount));
  }
  const expected = new Map<string, string>();
  for (const sub of w.subs) {
    for (let month = 0; month < MONTHS.length; month++) {
      const fee = month < w.started ? expectedFee(w, sub, month) : '0.00';
      if (fee !== '0.00') expected.set(`${sub.id}|${MONTHS[month].slice(0, 7)}|${w.customers[sub.customer].id}`, fee);
    }
  }
  for (const [key, fee] of expected) {
    const got = net.get(key)?.toFixed(2) ?? '0.00';
    if (got !== fee) problems.push(`${key}: billed ${got}, due ${fee}`);
  }
  for (const [key, amount] of net) {
    // November is the worker's own period start (the real clock): outside the model.
    if (key.split('|')[1] > MONTHS[MONTHS.length - 1].slice(0, 7)) continue;
    if (!expected.has(key) && !amount.isZero()) problems.push(`${key}: billed ${amount.toFixed(2)}, due nothing`);
  }
  const now = await closedBoxes(w);
  for (const [boxId, content] of frozen) {
    if (now.get(boxId) !== content) problems.push(`closed box ${boxId} changed: ${content} -> ${now.get(boxId)}`);
  }
  return problems;
}

test.serial('MSP recurring fees: every started month bills each subscription its days once, to its customer', async (t) => {
  let runs = 0;
  await fc.assert(fc.asyncProperty(stepsArb, async (steps) => {
    const w = await newWorld();
    const frozen = new Map<string, string>();
    let problems: string[];
    try {
      for (const step of steps) {
        const closedBefore = w.closed.size;
        await apply(w, step);
        if (w.closed.size > closedBefore) for (const [id, content] of await closedBoxes(w)) if (!frozen.has(id)) frozen.set(id, content);
      }
      problems = await check(w, frozen);
    } catch (error) {
      problems = [`failed: ${(error as Error).message}`];
    }
    runs++;
    if (problems.length) t.log(w.log.join('\n'));
    t.deepEqual(problems, [], `sequence:\n${w.log.join('\n')}`);
    return problems.length === 0;
  }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
  t.is(runs, RUNS);
});
