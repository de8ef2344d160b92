// Fees billed from two paths at once (since 2026-11-29, found by probing): a contract change that
// bills the started periods its contract holds no fee of (src/billing/unbilled-fees.ts: an MSP
// subscription's bounds changed, an EVSE link created on a CPO subscription, which bills the
// subscription's own fee too) ran beside the period start or a review-set close billing the same
// period. Neither saw the other's uncommitted item, both inserted it, and the second failed on
// billing_item's unique key: HTTP 500, or the worker's start or close failed. Now every path that
// bills fees holds the administration's fee lock (src/billing/fee-lock.ts) from before it reads
// what is billed to its commit: each request answers normally and each fee period is billed once.
// Each round has an administration of its own whose October started without its fees (a custom
// item made its review-set), so October is due for every contract; the change requests are fired
// together with the start or the close. Serial: the period start bills every administration.
import test, { type ExecutionContext } from 'ava';
import { Decimal } from 'decimal.js';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries, operationFinished } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { billedFees } from '../../helpers/fee-billing.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, okCall } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });
const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const ROUNDS = 4;
/** Contracts of each round, each billed by a change request of its own. */
const CONTRACTS = 3;
const OCTOBER = '2026-09-30T22:00:00.000Z';

type Kind = 'msp' | 'cpo';
let rounds = 0;

/**
 * A round's administration with contracts valid from September that hold no fee of October, which
 * has started: MSP subscriptions (10.00 a month), or CPO subscriptions (20.00 a month, 7.00 per EVSE)
 * each with an EVSE to link.
 */
async function world(kind: Kind) {
  // Sorted first (the newest first): the period start bills this administration before those of earlier rounds.
  const admin = await createAdministration(app, { id: `0race-${String(99 - rounds++).padStart(2, '0')}` });
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const contracts: { id: string; evseUid?: string }[] = [];
  if (kind === 'msp') {
    const plan = await createSubscriptionPlan(app, admin.id, { recurring_costs: [{ description: 'Card fee', amount_excl_vat: '10.00', period: 'month' }] });
    for (let i = 0; i < CONTRACTS; i++) {
      contracts.push(await createTokenSubscription(app, admin.id, { plan_id: plan.id, customer_id: customer.id, valid_from: '2026-09-01T00:00:00+02:00' }));
    }
  } else {
    const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin.id, name: 'Hosting' });
    await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-09-01`, {
      recurring_costs: [
        { description: 'Service', amount_excl_vat: '20.00', period: 'month' },
        { description: 'Hosting', amount_excl_vat: '7.00', period: 'month', per: 'evse' },
      ],
    });
    for (let i = 0; i < CONTRACTS; i++) {
      const subscription = await ok('POST', '/cpo-subscription', { customer_id: customer.id, plan_id: plan.id, valid_from: '2026-09-01T00:00:00+02:00' });
      contracts.push({ id: subscription.id, evseUid: (await createEvse(app, admin.id)).evse_uid });
    }
  }
  await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-10-02', party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1',
    unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
  });
  const sets = (await ok('GET', `/billing-review-set?limit=1000`)).items as any[];
  const october = sets.find((s) => s.billing_series_id === series.id && s.period_from === OCTOBER);
  if (!october) throw new Error('the custom item made no review-set of October');
  return { kind, adminId: admin.id, series, contracts, octoberSetId: october.id as string };
}

type World = Awaited<ReturnType<typeof world>>;

/** The contract changes that bill October's unbilled fees: an MSP subscription's end set, an EVSE linked to a CPO subscription. */
function changes(w: World) {
  return w.contracts.map((c) => (w.kind === 'msp'
    ? app.request('POST', `/main/v1/msp-token-subscription/${c.id}`, { body: { valid_until: '2027-06-01T00:00:00+02:00' } })
    : app.request('POST', '/main/v1/cpo-subscription-evse-link', { body: { subscription_id: c.id, evse_uid: c.evseUid } })));
}

/**
 * Every fee of October billed once, with its amount, and no fee subject twice (a change after the
 * close bills late, into a box of a later period, which starts that period for the next change); the
 * boxes' totals are what their items bill, the custom item's 10.00 included.
 */
async function billedOnce(t: ExecutionContext, w: World, round: number) {
  const items = await billedFees(app, w.adminId, `${w.kind}_subscription_fee`);
  const october = items.filter((i) => i.subjectId.split('/')[1] === '2026-10');
  const links = october.filter((i) => !w.contracts.some((c) => i.subjectId.startsWith(`${c.id}/`)));
  const expected = (w.kind === 'msp'
    ? w.contracts.map((c) => `${c.id}/2026-10/0=10.00`)
    : [...w.contracts.map((c) => `${c.id}/2026-10/0=20.00`), ...links.map((l) => `${l.subjectId}=7.00`)]).sort();
  t.deepEqual(october.map((i) => `${i.subjectId}=${i.amount}`).sort(), expected, `round ${round}: each October fee once`);
  t.is(links.length, w.kind === 'msp' ? 0 : CONTRACTS, `round ${round}: each link's fee of October`);
  const subjects = items.map((i) => i.subjectId);
  t.deepEqual(subjects.filter((s, i) => subjects.indexOf(s) !== i), [], `round ${round}: no fee twice`);
  const boxes = await boxesOf(app, `?series_external_reference=${w.series.external_reference}&limit=100`);
  const total = boxes.reduce((sum, b) => sum.add(b.total_amount_excl_vat), new Decimal(0));
  t.is(total.toFixed(2), items.reduce((sum, i) => sum.add(i.amount), new Decimal('10.00')).toFixed(2), `round ${round}: the boxes' totals`);
}

const failures = (answers: { status: number; body: unknown }[]) => answers.filter((r) => r.status < 200 || r.status > 299)
  .map((r) => `${r.status} ${JSON.stringify(r.body)}`);

for (const kind of ['msp', 'cpo'] as const) {
  const what = kind === 'msp' ? 'MSP subscriptions\' ends set' : 'EVSEs linked to CPO subscriptions';

  test.serial(`${what} and the period start bill October at once: every answer 2xx, each fee once`, async (t) => {
    for (let round = 0; round < ROUNDS; round++) {
      const w = await world(kind);
      const [answers, start] = await Promise.all([
        Promise.all(changes(w)),
        startCurrentPeriods(scopedEm(app.orm), new Date('2026-10-15T12:00:00Z')).then(() => 'done', (error: unknown) => String(error)),
      ]);
      t.deepEqual(failures(answers), [], `round ${round}: the changes`);
      t.is(start, 'done', `round ${round}: the period start`);
      await billedOnce(t, w, round);
    }
  });

  test.serial(`${what} and the review-set close bill October at once: every answer 2xx, the close done, each fee once`, async (t) => {
    for (let round = 0; round < ROUNDS; round++) {
      const w = await world(kind);
      const [close, ...answers] = await Promise.all([app.request('POST', `/main/v1/billing-review-set/${w.octoberSetId}/close`, {}), ...changes(w)]);
      t.is(close.status, 202, JSON.stringify(close.body));
      const operation = await operationFinished(app, close.body.id);
      t.deepEqual(failures(answers), [], `round ${round}: the changes`);
      t.is(operation.state, 'done', `round ${round}: the close ${JSON.stringify(operation)}`);
      await billedOnce(t, w, round);
    }
  });
}
