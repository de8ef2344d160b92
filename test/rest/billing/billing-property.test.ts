// Billing as a property, over HTTP: random sequences of charge sessions, repricings, rate changes,
// plan and customer corrections (also to a plan without a rate plan, whose sessions drop out),
// retries and discards of drop-out cases, box and review-set closes, approvals, finalizations and
// reopens. Every subscription starts with monetary credit. A correction may race the worker (sent
// without waiting for the sessions before it to be priced). After each sequence:
//   - each session is priced for the customer its token's subscription had at its start, or in
//     drop-out when that subscription's plan has no rate plan (or discarded);
//   - per customer and session, what the boxes bill nets to the current pricing result of the
//     session for the customer it is now assigned to while it is priced, and to nothing for any
//     other customer, nor for a session in drop-out or discarded (so per customer, the billed sum
//     equals the sum of the current results of its priced sessions);
//   - the credit granted is the subscriptions' balances plus what the current results of the
//     priced sessions used (nothing lost, nothing used twice);
//   - every box total is the sum of its roll-ups, every roll-up the sum of its items, VAT totals the
//     sum of the VAT breakdown;
//   - every finalized box, its items and its documents (PDF and UBL bytes) are as they were when it
//     was finalized;
//   - invoice numbers run 1..n per series and year, no gaps.
// Each sequence has an administration, series, rate plan, customers and tokens of its own, so
// sequences are independent; SVC_PROPERTY_LANES of them (default 4) run side by side on one app and
// database, each lane a fast-check property of its own (seed SVC_PROPERTY_SEED + lane). `npm test`
// runs 100 sequences of up to 20 steps with a fixed seed; SVC_PROPERTY_RUNS runs more,
// SVC_PROPERTY_RANDOM=1 takes a random seed (printed in the log), SVC_PROPERTY_SEED repeats one,
// SVC_PROPERTY_SHRINK=1 shrinks a failure (slow) instead of reporting the first one.
// The worker is waited for by reading the database (sessions still `received`, correction jobs not
// done, boxes still `approved`), polled every few milliseconds: no fixed sleeps.
import test from 'ava';
import fc from 'fast-check';
import { compareDecimal, sumCurrency } from '../../../src/money/decimal.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries, reviewSetOperation } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, insertSubscriptionPlan, insertToken, insertTokenLink, insertTokenSubscription } from '../../helpers/factories.ts';
import { createRatePlan, ensureVatRate, sessionBody } from '../../helpers/session-factories.ts';

const RUNS = Number(process.env.SVC_PROPERTY_RUNS ?? 100);
const LANES = Math.max(1, Math.min(RUNS, Number(process.env.SVC_PROPERTY_LANES ?? 4)));
const SEED = Number(process.env.SVC_PROPERTY_SEED ?? (process.env.SVC_PROPERTY_RANDOM ? Math.floor(Math.random() * 2 ** 31) : 20261126));
const SHRINK = process.env.SVC_PROPERTY_SHRINK === '1';
const MAX_STEPS = 20;

let app: TestApp;
/**
 * A rate plan every administration of the sequences shares: energy, time and a flat fee at the reduced
 * VAT rate, so its sessions have two lines (standard and reduced); a correction between it and the
 * sequence's own plan (energy only) withdraws or adds the reduced line.
 */
let sharedRatePlanId: string;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
  await ensureVatRate(app, 'NL', '9', 'reduced');
  sharedRatePlanId = await createRatePlan(app, [{
    valid_from: '2025-01-01T00:00:00Z',
    definition: { rates: { energy: { price: '0.30' }, time: { price: '0.013' }, flat: { price: '0.45', vat_kind: 'reduced' } }, rules: [] },
  }]);
});
test.after.always(async () => { await app?.close(); });

// Moments relative to now, so the sessions are never too old: in this month and the two before, the
// 3rd, the 10th at midnight UTC (also a correction moment: the `>=` of the repricing and the link's
// `[from, until)` meet there), the 14th and the 27th late in the evening, those already over.
const NOW = Date.now();
const MONTHS = [-2, -1, 0].map((k) => { const d = new Date(NOW); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1); });
const at = (month: number, day: number, hour: number) => { const d = new Date(month); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), day, hour); };
const SESSION_LENGTH_MS = 40 * 60_000;
const SESSION_STARTS = MONTHS.flatMap((m) => [at(m, 3, 10), at(m, 10, 0), at(m, 14, 10), at(m, 27, 21)])
  .filter((start) => start + SESSION_LENGTH_MS < NOW - 3_600_000);
const CORRECTION_MOMENTS = MONTHS.flatMap((m) => [at(m, 1, 0), at(m, 10, 0), at(m, 20, 0)]).filter((moment) => moment < NOW - 3_600_000);
const KWH = ['1', '2.5', '7.25', '13.333'];
const PRICES = ['0.20', '0.35', '0.50', '0.77'];

type Step =
  | { op: 'session'; token: number; start: number; kwh: string }
  | { op: 'reprice'; k: number }
  | { op: 'rate'; price: string }
  | { op: 'correct'; token: number; customer: number; plan: number; at: number; racing: boolean }
  | { op: 'close'; k: number }
  | { op: 'closeSet'; k: number }
  | { op: 'approve'; k: number }
  | { op: 'finalize'; k: number }
  | { op: 'reopen'; k: number }
  | { op: 'resolveCase'; k: number; discard: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('session' as const), token: fc.nat(1), start: fc.nat(SESSION_STARTS.length - 1), kwh: fc.constantFrom(...KWH) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reprice' as const), k: fc.nat(MAX_STEPS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rate' as const), price: fc.constantFrom(...PRICES) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('correct' as const), token: fc.nat(1), customer: fc.nat(2), plan: fc.nat(2), at: fc.nat(CORRECTION_MOMENTS.length - 1), racing: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('close' as const), k: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('closeSet' as const), k: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('approve' as const), k: fc.nat(9) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('finalize' as const), k: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reopen' as const), k: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('resolveCase' as const), k: fc.nat(9), discard: fc.boolean() }) },
);
// Lengths spread over 1..20 (fast-check's default size would keep most sequences short).
const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: MAX_STEPS, size: 'max' });

interface Box {
  id: string; state: string; party_id: string; period_from: string; billing_reviewset_id: string; billing_reviewset_code: string;
  invoice_code: string | null;
  total_amount_excl_vat: string; total_vat_amount: string; total_amount_incl_vat: string;
  rollups: { id: string; subtotal_excl_vat: string; item_count: number }[];
  vat_breakdown: { vat_amount: string }[];
}
interface Item { item_id: string; rollup_id: string; entry: string; msp_charge_session_id: string; amount_excl_vat: string; pricing_version: number }
interface Finalized { box: Box; items: Item[]; pdf: Buffer; xml: string }

/** From `from` on, a token's subscription is of this customer and plan (a correction starts the next). */
interface Holder { from: number; customerIndex: number; planIndex: number }

/** One sequence's world: its administration and what it made, and what it must find unchanged. */
interface World {
  adminId: string;
  seriesCode: string;
  seriesRef: string;
  ratePlanId: string;
  customers: string[];
  /** Plan 0 on the sequence's rate plan, 1 on the shared one, 2 without a rate plan (its sessions drop out). */
  plans: string[];
  /** Every subscription of the sequence (the first two and each correction's new one), and the credit granted to them. */
  subscriptions: string[];
  granted: string;
  tokens: { evcoId: string; subscriptionId: string; planIndex: number; customerIndex: number; validFrom: number; history: Holder[] }[];
  /** Each session's token and start, in the order of `sessions`. */
  sessionFacts: { token: number; start: number }[];
  sessions: string[];
  corrections: string[];
  approved: string[];
  finalized: Map<string, Finalized>;
  rateVersions: number;
  log: string[];
}

const api = (path: string) => `/main/v1${path}`;

async function call(method: string, path: string, body?: unknown) {
  const r = await app.request(method, api(path), body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Each first subscription's credit: about one or two sessions' worth. */
const GRANT = '4.00';

/** Subscriptions start well before the first session moment. */
const SUBSCRIPTION_START = MONTHS[0] - 40 * 86_400_000;

async function newWorld(): Promise<World> {
  const admin = await createAdministration(app);
  // Two plans: one on a rate plan of the sequence's own (whose price the `rate` step changes), one on the shared one.
  const [, series, ratePlanId, customers] = await Promise.all([
    configureBilling(app, admin.id),
    createSeries(app, admin.id),
    createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price: '0.50' } }, rules: [] } }], [admin.id]),
    Promise.all([0, 1, 2].map(async () => (await createCustomer(app, admin.id)).id)),
  ]);
  const plans = [(await insertSubscriptionPlan(app, admin.id, { ratePlanId })).id, (await insertSubscriptionPlan(app, admin.id, { ratePlanId: sharedRatePlanId })).id,
    (await insertSubscriptionPlan(app, admin.id)).id];
  // Token i starts on plan i for customer i.
  const tokens = await Promise.all([0, 1].map(async (i) => {
    const subscription = await insertTokenSubscription(app, admin.id, { plan: plans[i], customer: customers[i], validFrom: new Date(SUBSCRIPTION_START) });
    const token = await insertToken(app, admin.id);
    await insertTokenLink(app, admin.id, subscription.id, token.id);
    await call('POST', `/msp-token-subscription/${subscription.id}/monetary-credit`, { amount: GRANT });
    return { evcoId: token.evcoId, subscriptionId: subscription.id, planIndex: i, customerIndex: i, validFrom: SUBSCRIPTION_START,
      history: [{ from: SUBSCRIPTION_START, customerIndex: i, planIndex: i }] };
  }));
  return {
    adminId: admin.id, seriesCode: series.code, seriesRef: series.external_reference as string, ratePlanId, customers, plans, tokens,
    subscriptions: tokens.map((token) => token.subscriptionId), granted: sumCurrency(tokens.map(() => GRANT)),
    sessions: [], sessionFacts: [], corrections: [], approved: [], finalized: new Map(), rateVersions: 0, log: [],
  };
}

const SETTLED = `select
    (select count(*) from msp_charge_session where id = any(?::uuid[]) and status = 'received')::int as received,
    (select count(*) from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'subscription_corrected' and j.payload->>'correction_id' = any(?::text[]))::int as corrections,
    (select count(*) from billing_box where id = any(?::uuid[]) and state = 'approved')::int as approved,
    (select string_agg(t.identifier || ': ' || j.last_error, ' | ') from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      where j.last_error is not null and t.identifier in ('process_sessions', 'subscription_corrected', 'billing_render_draft')) as errors`;

const uuids = (ids: string[]) => `{${ids.join(',')}}`;

/** Until the worker is done with what the sequence gave it: sessions priced, corrections repriced, drafts rendered. */
async function settle(world: World): Promise<void> {
  const em = scopedEm(app.orm);
  const until = Date.now() + 30_000;
  // Polled from every 2 ms up to every 25 ms: most waits are a worker round trip of tens of milliseconds.
  let pause = 2;
  for (;;) {
    const [row] = await em.execute<{ received: number; corrections: number; approved: number; errors: string | null }[]>(SETTLED,
      [uuids(world.sessions), uuids(world.corrections), uuids(world.approved)]);
    if (row.errors) throw new Error(`a worker job failed: ${row.errors}`);
    if (row.received === 0 && row.corrections === 0 && row.approved === 0) {
      world.approved = [];
      return;
    }
    if (Date.now() > until) throw new Error(`the worker did not settle: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(25, pause * 1.5);
  }
}

async function boxes(world: World): Promise<Box[]> {
  const list = (await call('GET', `/billing-box?series_external_reference=${world.seriesRef}&page_size=1000`)).items as Box[];
  // One order that does not depend on generated ids: customer, period, then state.
  const rank = (box: Box) => `${world.customers.indexOf(box.party_id)}|${box.period_from}|${box.state}`;
  return list.sort((a, b) => rank(a).localeCompare(rank(b)));
}

async function items(boxId: string): Promise<Item[]> {
  return (await call('GET', `/billing-box/${boxId}/msp-charge-session?page_size=1000`)).items as Item[];
}

async function documents(boxId: string): Promise<{ pdf: Buffer; xml: string }> {
  const pdf = await app.request('GET', api(`/billing-box/${boxId}/document`));
  const xml = await app.request('GET', api(`/billing-box/${boxId}/document`), { headers: { accept: 'application/xml' } });
  if (pdf.status !== 200 || xml.status !== 200) throw new Error(`documents of ${boxId}: ${pdf.status} ${xml.status}`);
  return { pdf: pdf.body as Buffer, xml: xml.body as string };
}

const pick = <T>(list: T[], k: number): T | undefined => (list.length ? list[k % list.length] : undefined);

/** A box with lines to issue (its roll-ups are shown while they hold items). */
const hasLines = (box: Box) => box.rollups.length > 0;

async function runStep(world: World, step: Step): Promise<string> {
  if (step.op === 'session') {
    const token = world.tokens[step.token];
    const start = SESSION_STARTS[step.start];
    const session = await call('POST', '/charge-session', sessionBody(token.evcoId, {
      session_id: `P-${world.adminId}-${world.sessions.length}`, total_energy_kwh: step.kwh,
      start_date_time: new Date(start).toISOString(), end_date_time: new Date(start + SESSION_LENGTH_MS).toISOString(),
    }));
    world.sessions.push(session.id);
    world.sessionFacts.push({ token: step.token, start });
    return `session ${world.sessions.length - 1} of token ${step.token} at ${new Date(start).toISOString()}, ${step.kwh} kWh`;
  }
  // Everything else looks at what the worker made of the steps before; a racing correction does not wait
  // for it (sessions may be in a processing batch while it commits).
  if (!(step.op === 'correct' && step.racing)) await settle(world);
  switch (step.op) {
    case 'reprice': {
      const id = pick(world.sessions, step.k);
      if (!id) return 'reprice: no session';
      const r = await app.request('POST', api(`/msp-charge-session/${id}/reprice`));
      if (r.status === 400 && r.body.code === 'session_discarded') return `reprice session ${world.sessions.indexOf(id)}: no (discarded)`;
      if (r.status !== 200) throw new Error(`reprice: ${r.status} ${JSON.stringify(r.body)}`);
      return `reprice session ${world.sessions.indexOf(id)}`;
    }
    case 'rate': {
      // Versions take effect in order of valid_from; each new one is a minute after the last, long before any session.
      world.rateVersions += 1;
      await call('POST', `/rate-plan/${world.ratePlanId}/version`, {
        valid_from: new Date(Date.UTC(2025, 6, 1) + world.rateVersions * 60_000).toISOString(),
        definition: { rates: { energy: { price: step.price } }, rules: [] },
      });
      return `rate ${step.price} (sessions keep their price until repriced)`;
    }
    case 'correct': {
      const token = world.tokens[step.token];
      const moment = [...CORRECTION_MOMENTS.slice(step.at), ...CORRECTION_MOMENTS].find((m) => m > token.validFrom);
      if (moment === undefined) return `correct token ${step.token}: no moment after ${new Date(token.validFrom).toISOString()}`;
      let plan = step.plan;
      if (plan === token.planIndex && step.customer === token.customerIndex) plan = (plan + 1) % world.plans.length;
      const body: Record<string, unknown> = { valid_from: new Date(moment).toISOString() };
      if (plan !== token.planIndex) body.new_plan_id = world.plans[plan];
      if (step.customer !== token.customerIndex) body.new_customer_id = world.customers[step.customer];
      const result = await call('POST', `/msp-token-subscription/${token.subscriptionId}/plan-or-customer-correction`, body);
      world.corrections.push(result.correction.id);
      world.subscriptions.push(result.new_subscription.id);
      Object.assign(token, { subscriptionId: result.new_subscription.id, planIndex: plan, customerIndex: step.customer, validFrom: moment });
      token.history.push({ from: moment, customerIndex: step.customer, planIndex: plan });
      return `correct token ${step.token} from ${new Date(moment).toISOString()} to plan ${plan}, customer ${step.customer}${step.racing ? ' (racing the worker)' : ''}`;
    }
    case 'close': {
      const box = pick((await boxes(world)).filter((b) => b.state === 'open'), step.k);
      if (!box) return 'close: no open box';
      await call('POST', `/billing-box/${box.id}/close`);
      return `close ${describe(world, box)}`;
    }
    case 'closeSet': {
      const sets = [...new Set((await boxes(world)).filter((b) => b.state === 'open').map((b) => b.billing_reviewset_id))];
      const set = pick(sets, step.k);
      if (!set) return 'close review-set: no open box';
      // A box reopened after its review-set closed is open in a set that stays closed.
      const state = (await call('GET', `/billing-review-set/${set}`)).state;
      if (state !== 'open') return `close review-set ${set}: no (${state})`;
      // A job the request starts: followed until the worker is through with it.
      const operation = await reviewSetOperation(app, set, 'close');
      if (operation.state !== 'done') throw new Error(`close of review-set ${set}: ${JSON.stringify(operation)}`);
      return `close review-set ${set}`;
    }
    case 'approve': {
      // A closed box, else an open one closed first (of those with lines: one whose items were all withdrawn has nothing to issue).
      const all = (await boxes(world)).filter(hasLines);
      const box = pick(all.filter((b) => b.state === 'closed'), step.k) ?? pick(all.filter((b) => b.state === 'open'), step.k);
      if (!box) return 'approve: no closed or open box';
      if (box.state === 'open') await call('POST', `/billing-box/${box.id}/close`);
      await call('POST', `/billing-box/${box.id}/approve`);
      world.approved.push(box.id);
      return `approve ${describe(world, box)}`;
    }
    case 'finalize': {
      // A ready box, else a closed one approved first, else an open one closed and approved first (with lines).
      const all = (await boxes(world)).filter(hasLines);
      let box = pick(all.filter((b) => b.state === 'ready'), step.k);
      if (!box) {
        box = pick(all.filter((b) => b.state === 'closed'), step.k) ?? pick(all.filter((b) => b.state === 'open'), step.k);
        if (!box) return 'finalize: no box';
        if (box.state === 'open') await call('POST', `/billing-box/${box.id}/close`);
        await call('POST', `/billing-box/${box.id}/approve`);
        world.approved.push(box.id);
        await settle(world);
      }
      const finalized = await call('POST', `/billing-box/${box.id}/finalize`) as Box;
      const [boxItems, docs] = await Promise.all([items(box.id), documents(box.id)]);
      world.finalized.set(box.id, { box: finalized, items: boxItems, ...docs });
      return `finalize ${describe(world, box)} as ${finalized.invoice_code} (${finalized.total_amount_excl_vat})`;
    }
    case 'resolveCase': {
      const dropouts = (await Promise.all(world.subscriptions.map(async (subscription) =>
        (await call('GET', `/msp-charge-session?status=dropout&subscription_id=${subscription}&page_size=100`)).items as { id: string; dropout_case_id: string }[]))).flat();
      const cases = [...new Set(dropouts.sort((a, b) => world.sessions.indexOf(a.id) - world.sessions.indexOf(b.id)).map((d) => d.dropout_case_id))];
      const caseId = pick(cases, step.k);
      if (!caseId) return `${step.discard ? 'discard' : 'retry'}: no drop-out case`;
      await call('POST', `/msp-dropout-case/${caseId}/reprocess`, { instruction: step.discard ? 'discard' : 'retry' });
      return `${step.discard ? 'discard' : 'retry'} the case of sessions ${dropouts.filter((d) => d.dropout_case_id === caseId).map((d) => world.sessions.indexOf(d.id)).join(', ')}`;
    }
    case 'reopen': {
      const box = pick((await boxes(world)).filter((b) => ['closed', 'approved', 'ready'].includes(b.state)), step.k);
      if (!box) return 'reopen: no closed, approved or ready box';
      await call('POST', `/billing-box/${box.id}/reopen`);
      return `reopen ${describe(world, box)}`;
    }
  }
}

/** A box by customer and period (its review-set's code ends in the period's label: 2026-11). */
const describe = (world: World, box: Box) => `box of customer ${world.customers.indexOf(box.party_id)} ${box.billing_reviewset_code.slice(-7)} (${box.state}, ${box.total_amount_excl_vat})`;

/** What must hold after a sequence; answers the violations. */
async function check(world: World): Promise<string[]> {
  await settle(world);
  const problems: string[] = [];
  const [all, sessions, results] = await Promise.all([
    boxes(world),
    Promise.all(world.sessions.map((id) => call('GET', `/msp-charge-session/${id}`))),
    Promise.all(world.sessions.map(async (id) => (await call('GET', `/msp-charge-session-priced?charge_session_id=${id}`)).items as any[])),
  ]);
  const itemsOf = new Map(await Promise.all(all.map(async (box) => [box.id, await items(box.id)] as const)));

  // Each session: its current result is what its current customer is billed for it, net, while it is
  // priced; others net nothing. Only the plan without a rate plan drops sessions out.
  const expected = new Map<string, string>();
  const creditUsed: string[] = [];
  sessions.forEach((session, i) => {
    // Whom it is for: the customer and plan its token's subscription had at its start.
    const facts = world.sessionFacts[i];
    const holder = world.tokens[facts.token].history.filter((h) => h.from <= facts.start).at(-1)!;
    if (session.status === 'discarded') return void (unpricedChecked += 1);
    if (holder.planIndex === 2) {
      if (session.status !== 'dropout' || session.dropout_reason !== 'rate_plan_missing') problems.push(`session ${i} is ${session.status} (${session.dropout_reason}), its plan has no rate plan`);
      unpricedChecked += 1;
      return;
    }
    if (session.status !== 'priced') return problems.push(`session ${i} is ${session.status} (${session.dropout_reason})`);
    if (session.customer_id !== world.customers[holder.customerIndex]) {
      problems.push(`session ${i} is priced for customer ${world.customers.indexOf(session.customer_id)}, its token's subscription at its start is customer ${holder.customerIndex}'s`);
    }
    const current = results[i].find((r) => r.version === session.pricing_version);
    if (!current) return problems.push(`session ${i}: no pricing result of version ${session.pricing_version}`);
    expected.set(`${current.customer_id}|${session.id}`, current.total_excl_vat);
    creditUsed.push(current.monetary_credit_used);
  });
  const billed = new Map<string, string[]>();
  for (const box of all) {
    if (!world.customers.includes(box.party_id)) problems.push(`box ${box.id} of a party not of this sequence`);
    for (const item of itemsOf.get(box.id)!) {
      const key = `${box.party_id}|${item.msp_charge_session_id}`;
      billed.set(key, [...(billed.get(key) ?? []), item.amount_excl_vat]);
    }
  }
  for (const key of new Set([...expected.keys(), ...billed.keys()])) {
    const want = expected.get(key) ?? '0.00';
    const got = sumCurrency(billed.get(key) ?? []);
    if (compareDecimal(want, got) !== 0) {
      const [customer, session] = key.split('|');
      problems.push(`customer ${world.customers.indexOf(customer)} is billed ${got} for session ${world.sessions.indexOf(session)}, its current pricing says ${want}`);
    }
  }
  // Per customer: the box totals against the sessions' current results.
  world.customers.forEach((customer, c) => {
    const want = sumCurrency([...expected].filter(([key]) => key.startsWith(`${customer}|`)).map(([, amount]) => amount));
    const got = sumCurrency(all.filter((box) => box.party_id === customer).map((box) => box.total_amount_excl_vat));
    if (compareDecimal(want, got) !== 0) problems.push(`customer ${c}: boxes total ${got}, current pricing of its sessions ${want}`);
  });

  // Credit: what was granted is still on the subscriptions or used by the current results of priced sessions.
  const balances = await Promise.all(world.subscriptions.map(async (id) => (await call('GET', `/msp-token-subscription/${id}`)).monetary_credit_balance as string));
  const accounted = sumCurrency([...balances, ...creditUsed]);
  if (compareDecimal(accounted, world.granted) !== 0) {
    problems.push(`credit: granted ${world.granted}, balances ${balances.join(' + ')} and used by current results ${creditUsed.join(' + ') || '0'} make ${accounted}`);
  }

  // Boxes: totals are their roll-ups, roll-ups their items.
  for (const box of all) {
    const name = describe(world, box);
    const lines = sumCurrency(box.rollups.map((r) => r.subtotal_excl_vat));
    if (compareDecimal(lines, box.total_amount_excl_vat) !== 0) problems.push(`${name}: total ${box.total_amount_excl_vat}, roll-ups ${lines}`);
    const vat = sumCurrency(box.vat_breakdown.map((v) => v.vat_amount));
    if (compareDecimal(vat, box.total_vat_amount) !== 0) problems.push(`${name}: VAT ${box.total_vat_amount}, breakdown ${vat}`);
    if (compareDecimal(sumCurrency([box.total_amount_excl_vat, box.total_vat_amount]), box.total_amount_incl_vat) !== 0) {
      problems.push(`${name}: ${box.total_amount_excl_vat} + ${box.total_vat_amount} is not ${box.total_amount_incl_vat}`);
    }
    const boxItems = itemsOf.get(box.id)!;
    for (const rollup of box.rollups) {
      const mine = boxItems.filter((i) => i.rollup_id === rollup.id);
      const sum = sumCurrency(mine.map((i) => i.amount_excl_vat));
      if (compareDecimal(sum, rollup.subtotal_excl_vat) !== 0 || mine.length !== rollup.item_count) {
        problems.push(`${name}: roll-up ${rollup.subtotal_excl_vat} (${rollup.item_count} items), its items ${sum} (${mine.length})`);
      }
    }
    const orphans = boxItems.filter((i) => !box.rollups.some((r) => r.id === i.rollup_id));
    if (orphans.length) problems.push(`${name}: ${orphans.length} items in no roll-up shown`);
  }

  // Finalized boxes and their documents are as they were at finalize.
  for (const [id, before] of world.finalized) {
    const now = all.find((box) => box.id === id);
    if (!now) { problems.push(`finalized box ${id} is gone`); continue; }
    const name = describe(world, now);
    const { rollups: a, ...restBefore } = before.box as Box & Record<string, unknown>;
    const { rollups: b, ...restNow } = now as Box & Record<string, unknown>;
    if (canonical(normalizeBox(restNow, b)) !== canonical(normalizeBox(restBefore, a))) {
      problems.push(`${name} changed after finalize: ${canonical(normalizeBox(restBefore, a))} → ${canonical(normalizeBox(restNow, b))}`);
    }
    if (canonical(itemsOf.get(id)) !== canonical(before.items)) problems.push(`${name}: its items changed after finalize`);
    const docs = await documents(id);
    if (!docs.pdf.equals(before.pdf)) problems.push(`${name}: its PDF changed after finalize`);
    if (docs.xml !== before.xml) problems.push(`${name}: its UBL changed after finalize`);
  }

  // Invoice numbers: 1..n per series and year.
  const numbers = new Map<string, number[]>();
  for (const box of all.filter((b) => b.state === 'finalized')) {
    const match = new RegExp(`^${world.seriesCode}-(\\d{4})-(\\d{6})$`).exec(box.invoice_code ?? '');
    if (!match) { problems.push(`${describe(world, box)}: invoice code ${box.invoice_code}`); continue; }
    numbers.set(match[1], [...(numbers.get(match[1]) ?? []), Number(match[2])]);
  }
  for (const [year, list] of numbers) {
    const sorted = [...list].sort((x, y) => x - y);
    if (sorted.some((n, i) => n !== i + 1)) problems.push(`invoice numbers of ${year}: ${sorted.join(', ')}`);
  }
  return problems;
}

/** JSON with the members of every object in name order (a roll-up's volume map has no fixed order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y))) : v));
}

/** A box's representation without what may change on a finalized box (updated_at, transfer marks). */
function normalizeBox(box: Record<string, unknown>, rollups: unknown): unknown {
  const { updated_at: _u, transferred: _t, ...rest } = box;
  return { ...rest, rollups };
}

let sequences = 0;
/** Sessions the checks found in drop-out or discarded (the sequences reach them, not only priced ones). */
let unpricedChecked = 0;
/** Steps run per kind, those that found nothing to act on (no open box to close, ...), and their time. */
const stepCounts = new Map<string, { run: number; idle: number; ms: number }>();
const count = (op: string, ms: number, idle = false) => {
  const c = stepCounts.get(op) ?? { run: 0, idle: 0, ms: 0 };
  c.run += 1;
  c.ms += ms;
  if (idle) c.idle += 1;
  stepCounts.set(op, c);
};

async function sequence(steps: Step[]): Promise<void> {
  let started = performance.now();
  const world = await newWorld();
  count('(setup)', performance.now() - started);
  try {
    for (const step of steps) {
      started = performance.now();
      const outcome = await runStep(world, step);
      world.log.push(outcome);
      count(step.op, performance.now() - started, /: no /.test(outcome));
    }
  } catch (error) {
    throw new Error(`step ${world.log.length + 1} failed after:\n  ${world.log.join('\n  ')}\n${(error as Error).message}`);
  }
  started = performance.now();
  const problems = await check(world);
  count('(check)', performance.now() - started);
  sequences += 1;
  if (problems.length) throw new Error(`after:\n  ${world.log.join('\n  ')}\nfound:\n  ${problems.join('\n  ')}`);
}

test('billing: random sequences of sessions, repricings, corrections, drop-outs, closes and finalizations keep every customer billed exactly its current prices, credit conserved, finalized boxes unchanged and numbers gap-free', async (t) => {
  t.timeout(Math.max(120_000, RUNS * 1_500));
  t.log(`seed ${SEED} (SVC_PROPERTY_SEED), ${RUNS} sequences (SVC_PROPERTY_RUNS) of up to ${MAX_STEPS} steps in ${LANES} lanes (SVC_PROPERTY_LANES)`);
  const started = performance.now();
  const lanes = Array.from({ length: LANES }, (_, lane) => fc.assert(fc.asyncProperty(stepsArb, sequence), {
    seed: (SEED + lane) | 0,
    numRuns: Math.floor(RUNS / LANES) + (lane < RUNS % LANES ? 1 : 0),
    endOnFailure: !SHRINK,
    includeErrorInReport: true,
  }));
  const outcomes = await Promise.allSettled(lanes);
  const failures = outcomes.flatMap((o, lane) => (o.status === 'rejected' ? [`lane ${lane} (seed ${(SEED + lane) | 0}): ${(o.reason as Error).message}`] : []));
  t.log(`${unpricedChecked} sessions left unpriced at the checks`);
  t.log(`${sequences} sequences checked in ${((performance.now() - started) / 1000).toFixed(1)} s; steps (idle) and their time over all lanes: ${
    [...stepCounts].map(([op, c]) => `${op} ${c.run} (${c.idle}) ${(c.ms / 1000).toFixed(1)} s`).join(', ')}`);
  if (failures.length) t.fail(`${failures.join('\n\n')}\n\nrepeat with SVC_PROPERTY_SEED=${SEED}`);
  else t.true(sequences >= RUNS);
});
