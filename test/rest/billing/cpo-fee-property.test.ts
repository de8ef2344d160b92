// CPO recurring fees as a property, over HTTP: random sequences of CPO subscriptions created
// (back-dated or not), EVSEs linked to them, the bounds of either moved (always with
// `recurring_cost_correction: true`), either made defunct (which bills nothing), months started by the period start and their review-sets
// closed, in time order (August to October 2026, Europe/Amsterdam). After each sequence, for every
// subscription, every link and every month already started, what the boxes bill nets to the fee of
// its days in the month (a link's: its bounds clipped to its subscription's), to the subscription's
// customer and nobody else; a month not started bills nothing; a closed box never changes.
// The oracle is test/helpers/fee-billing.ts, written apart from the billing code. Each sequence has
// an administration of its own; sequences run one after another (the period start bills every
// administration of the database).
import test from 'ava';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { closeMonth, expectedFee, feeCall, FEE_MOMENTS as MOMENTS, FEE_MONTHS as MONTHS, feeSequenceProblems, startNextMonth, type FeeWorld } from '../../helpers/fee-billing.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

const RUNS = Number(process.env.SVC_FEE_PROPERTY_RUNS ?? 14);
const SEED = Number(process.env.SVC_PROPERTY_SEED ?? 20261128);
const MAX_STEPS = 14;
const KIND = 'cpo_subscription_fee';
/** The plan's monthly costs: per subscription, and per linked EVSE. */
const PER_SUBSCRIPTION = '20.00';
const PER_EVSE = '7.00';

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });

type Step =
  | { op: 'subscribe'; customer: number; from: number; until: number | null }
  | { op: 'link'; sub: number; evse: number; from: number | null; until: number | null }
  | { op: 'subscriptionBounds'; sub: number; from: number | null; until: number | null }
  | { op: 'linkBounds'; link: number; from: number | null; until: number | null }
  | { op: 'subscriptionDefunct'; sub: number }
  | { op: 'linkDefunct'; link: number }
  | { op: 'start' }
  | { op: 'close'; month: number };

const moment = fc.nat(MOMENTS.length - 1);
const maybe = fc.option(moment, { nil: null });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('subscribe' as const), customer: fc.nat(1), from: moment, until: maybe }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('link' as const), sub: fc.nat(5), evse: fc.nat(2), from: maybe, until: maybe }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('subscriptionBounds' as const), sub: fc.nat(5), from: maybe, until: maybe }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('linkBounds' as const), link: fc.nat(5), from: maybe, until: maybe }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('subscriptionDefunct' as const), sub: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('linkDefunct' as const), link: fc.nat(5) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('start' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('close' as const), month: fc.nat(MONTHS.length - 1) }) },
);
const stepsArb = fc.array(stepArb, { minLength: 4, maxLength: MAX_STEPS, size: 'max' });

interface Subscription { id: string; customer: number; from: Date; until: Date | null; defunct?: boolean }
/** A link's own bounds (from null: its subscription's start). */
interface Link { id: string; sub: Subscription; from: Date | null; until: Date | null; defunct?: boolean }
interface World extends FeeWorld {
  customers: { id: string }[];
  planId: string;
  evses: { evse_uid: string }[];
  subs: Subscription[];
  links: Link[];
}

const call = (method: string, path: string, body?: unknown) => feeCall(app, method, path, body);

async function newWorld(): Promise<World> {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const plan = await okCall(app, 'POST', '/cpo-subscription-plan', { admin_id: admin.id, name: 'Hosting' });
  await okCall(app, 'POST', `/cpo-subscription-plan/${plan.id}/2026-01-01`, {
    recurring_costs: [
      { description: 'Service', amount_excl_vat: PER_SUBSCRIPTION, period: 'month' },
      { description: 'Hosting', amount_excl_vat: PER_EVSE, period: 'month', per: 'evse' },
    ],
  });
  const customers = [await createCustomer(app, admin.id), await createCustomer(app, admin.id)];
  const evses = [];
  for (let i = 0; i < 3; i++) evses.push(await createEvse(app, admin.id));
  return { adminId: admin.id, seriesId: series.id, customers, planId: plan.id, evses, subs: [], links: [], started: 0, closed: new Set(), log: [] };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const pick = <T>(list: T[], i: number): T | undefined => list[i % Math.max(1, list.length)];
/** Bounds in order: drawn the wrong way round they are swapped (equal: open-ended), so that fewer steps are lost. */
function ordered(from: Date | null, until: Date | null): [Date | null, Date | null] {
  if (!from || !until || until > from) return [from, until];
  return until < from ? [until, from] : [from, null];
}
/** A link's bounds clipped to its subscription's. */
const linkFrom = (l: Link) => (l.from && l.from > l.sub.from ? l.from : l.sub.from);
const linkUntil = (l: Link) => (l.until && l.sub.until ? (l.until < l.sub.until ? l.until : l.sub.until) : (l.until ?? l.sub.until));

async function apply(w: World, step: Step): Promise<void> {
  switch (step.op) {
    case 'subscribe': {
      const [start, until] = ordered(MOMENTS[step.from], step.until === null ? null : MOMENTS[step.until]);
      const from = start!;
      const r = await call('POST', '/cpo-subscription', { customer_id: w.customers[step.customer].id, plan_id: w.planId, valid_from: iso(from), valid_until: iso(until) });
      if (r.status !== 200) throw new Error(`subscribe: ${r.status} ${JSON.stringify(r.body)}`);
      w.subs.push({ id: r.body.id, customer: step.customer, from, until });
      w.log.push(`subscribe ${r.body.id} c${step.customer} ${iso(from)}..${iso(until)}`);
      return;
    }
    case 'link': {
      const sub = pick(w.subs, step.sub);
      if (!sub) return;
      const [from, until] = ordered(step.from === null ? null : MOMENTS[step.from], step.until === null ? null : MOMENTS[step.until]);
      const body = { subscription_id: sub.id, evse_uid: w.evses[step.evse].evse_uid, valid_from: iso(from), valid_until: iso(until) };
      const r = await call('POST', '/cpo-subscription-evse-link', body);
      w.log.push(`link ${JSON.stringify(body)} -> ${r.status}${r.status === 200 ? ` ${r.body.id}` : ` ${r.body.code} ${r.body.message}`}`);
      if (r.status === 200) w.links.push({ id: r.body.id, sub, from, until });
      return;
    }
    case 'subscriptionBounds': {
      const sub = pick(w.subs, step.sub);
      if (!sub || (step.from === null && step.until === null)) return;
      const [start, until] = ordered(step.from === null ? sub.from : MOMENTS[step.from], step.until === null ? sub.until : MOMENTS[step.until]);
      const from = start!;
      const body: Record<string, unknown> = { recurring_cost_correction: true };
      if (from.getTime() !== sub.from.getTime()) body.valid_from = iso(from);
      if (until?.getTime() !== sub.until?.getTime()) body.valid_until = iso(until);
      const r = await call('POST', `/cpo-subscription/${sub.id}`, body);
      w.log.push(`subscription ${sub.id} ${JSON.stringify(body)} -> ${r.status}${r.status === 200 ? '' : ` ${r.body.code} ${r.body.message}`}`);
      if (r.status !== 200) return;
      sub.from = from;
      sub.until = until;
      return;
    }
    case 'linkBounds': {
      const link = pick(w.links, step.link);
      if (!link || (step.from === null && step.until === null)) return;
      const [from, until] = ordered(step.from === null ? link.from : MOMENTS[step.from], step.until === null ? link.until : MOMENTS[step.until]);
      const body: Record<string, unknown> = { recurring_cost_correction: true };
      if (from?.getTime() !== link.from?.getTime()) body.valid_from = iso(from);
      if (until?.getTime() !== link.until?.getTime()) body.valid_until = iso(until);
      const r = await call('POST', `/cpo-subscription-evse-link/${link.id}`, body);
      w.log.push(`link ${link.id} ${JSON.stringify(body)} -> ${r.status}${r.status === 200 ? '' : ` ${r.body.code} ${r.body.message}`}`);
      if (r.status !== 200) return;
      link.from = from;
      link.until = until;
      return;
    }
    case 'subscriptionDefunct':
    case 'linkDefunct': {
      const record = step.op === 'subscriptionDefunct' ? pick(w.subs, step.sub) : pick(w.links, step.link);
      if (!record) return;
      const path = step.op === 'subscriptionDefunct' ? '/cpo-subscription' : '/cpo-subscription-evse-link';
      const r = await call('PUT', `${path}/${record.id}/defunct`);
      w.log.push(`defunct ${path} ${record.id} -> ${r.status}`);
      if (r.status !== 200) throw new Error(`defunct: ${r.status} ${JSON.stringify(r.body)}`);
      record.defunct = true;
      return;
    }
    case 'start': return startNextMonth(app, w);
    case 'close': return closeMonth(app, w, step.month);
  }
}

/** What is due: every subscription's and every link's fee of every month started, to the subscription's customer; a defunct one's nothing. */
function due(w: World): Map<string, string> {
  const expected = new Map<string, string>();
  const add = (owner: string, customer: number, fee: string, from: Date, until: Date | null) => {
    for (let month = 0; month < w.started; month++) {
      const amount = expectedFee(fee, from, until, month);
      if (amount !== '0.00') expected.set(`${owner}|${MONTHS[month].slice(0, 7)}|${w.customers[customer].id}`, amount);
    }
  };
  for (const sub of w.subs) if (!sub.defunct) add(sub.id, sub.customer, PER_SUBSCRIPTION, sub.from, sub.until);
  for (const link of w.links) {
    // A defunct subscription's links are defunct with it.
    if (link.defunct || link.sub.defunct) continue;
    const from = linkFrom(link);
    const until = linkUntil(link);
    if (!until || until > from) add(link.id, link.sub.customer, PER_EVSE, from, until);
  }
  return expected;
}

test.serial('CPO recurring fees: every started month bills each subscription and each EVSE link its days once, to its customer', async (t) => {
  let runs = 0;
  await fc.assert(fc.asyncProperty(stepsArb, async (steps) => {
    const w = await newWorld();
    const problems = await feeSequenceProblems(app, w, KIND, steps, apply, due);
    runs++;
    if (problems.length || process.env.SVC_PROPERTY_LOG) t.log(w.log.join('\n'));
    t.deepEqual(problems, [], `sequence:\n${w.log.join('\n')}`);
    return problems.length === 0;
  }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
  t.is(runs, RUNS);
});
