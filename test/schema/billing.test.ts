import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { configureBilling, createSeries } from '../helpers/billing-factories.ts';
import { createAdministration } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../helpers/session-factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const REVIEW = `query ($id: ID!) { billingReviewSet(id: $id) {
  code state boxCounts { open closed approved ready finalized }
  boxes(first: 20) { edges { node {
    databaseId state partyName totalAmountExclVat totalAmountInclVat
    rollups { productCategory itemCount subtotalExclVat volume { unit volume }
      items(first: 10) { entry amountExclVat chargeSession { databaseId status pricingResults(first: 2) { edges { node { version totalExclVat } } } } }
    }
  } } }
} }`;

/** An administration with `customers` customers, each with `sessions` priced October sessions; the October review-set's id. */
async function seed(customers: number, sessions: number): Promise<{ adminId: string; setId: string }> {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  let ratePlanId: string | undefined;
  const ids: string[] = [];
  for (let c = 0; c < customers; c++) {
    const sub = await pricedSubscription(app, admin.id, ratePlanId ? { ratePlanId } : {});
    ratePlanId = sub.ratePlanId;
    for (let s = 0; s < sessions; s++) {
      const day = String(2 + s).padStart(2, '0');
      ids.push((await submitSession(app, sessionBody(sub.evcoId, { start_date_time: `2026-10-${day}T10:00:00Z`, end_date_time: `2026-10-${day}T11:00:00Z` }))).id);
    }
  }
  for (const id of ids) await processed(app, id);
  const sets = await app.request('GET', `/main/v1/billing-review-set?billing_series_id=${series.id}`);
  return { adminId: admin.id, setId: sets.body.items.find((s: any) => s.period_from.startsWith('2026-09-30') || s.period_from.startsWith('2026-10-01')).id };
}

test.serial('the review screen: review-set → boxes → roll-ups → items → sessions → pricing results costs the same few queries for 1 or 12 boxes', async (t) => {
  const small = await seed(1, 1);
  const large = await seed(12, 3);
  await data(app, '{ administrations { id } }');
  let result: Record<string, any> = {};
  const forSmall = await countQueries(app.orm, () => data(app, REVIEW, { id: small.setId }));
  const forLarge = await countQueries(app.orm, async () => { result = await data(app, REVIEW, { id: large.setId }); });
  const boxes = result.billingReviewSet.boxes.edges;
  t.is(boxes.length, 12);
  const items = boxes.flatMap((b: any) => b.node.rollups.flatMap((r: any) => r.items));
  t.is(items.length, 36);
  t.true(items.every((i: any) => i.chargeSession.status === 'PRICED' && i.chargeSession.pricingResults.edges[0].node.totalExclVat === i.amountExclVat));
  t.true(boxes.every((b: any) => b.node.rollups[0].subtotalExclVat === b.node.totalAmountExclVat));
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));
  t.true(forLarge.length <= 12, forLarge.join('\n'));
});

const OPERATION = 'query ($id: ID!) { billingReviewSetOperation(id: $id) { state error { code } reviewSet { state boxCounts { open closed approved ready finalized } deferredBoxCount } } }';

/** A review-set close or approve (a job): its pending operation, then followed until the worker is through. */
async function finished(mutation: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  const [started] = Object.values(await data(app, mutation, variables)) as { databaseId: string; state: string }[];
  if (started.state !== 'PENDING') throw new Error(`not pending: ${JSON.stringify(started)}`);
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const { billingReviewSetOperation: operation } = await data(app, OPERATION, { id: started.databaseId });
    if (operation.state !== 'PENDING') return operation;
  }
  throw new Error(`operation ${started.databaseId} still pending`);
}

test.serial('mutations walk the same state machine as REST, and a foreign credential sees nothing', async (t) => {
  const { adminId, setId } = await seed(2, 1);
  const boxes = (await data(app, REVIEW, { id: setId })).billingReviewSet.boxes.edges.map((e: any) => e.node.databaseId);
  const closed = await finished('mutation ($id: ID!) { closeBillingReviewSet(id: $id) { databaseId state } }', { id: setId });
  t.is(closed.state, 'DONE');
  t.is(closed.reviewSet.state, 'closed');
  const deferred = await data(app, 'mutation ($id: ID!) { deferBillingBox(id: $id) { state deferred } }', { id: boxes[0] });
  t.deepEqual(deferred.deferBillingBox, { state: 'CLOSED', deferred: true });
  const approved = await finished('mutation ($id: ID!) { approveBillingReviewSet(id: $id, payment: { paymentMethod: "direct_debit" }) { databaseId state } }', { id: setId });
  t.is(approved.state, 'DONE');
  t.is(approved.reviewSet.deferredBoxCount, 1);
  const again = await graphql(app, 'mutation ($id: ID!) { closeBillingBox(id: $id) { state } }', { id: boxes[1] });
  t.is(again.body.errors?.[0].extensions?.code, 'invalid_state');
  t.is((await app.request('GET', `/main/v1/billing-box/${boxes[1]}`)).body.payment_method, 'direct_debit');

  const other = await createAdministration(app);
  const foreign = await app.credential({ role: 'admin', adminIds: [other.id] });
  const seen = await data(app, 'query ($id: ID!) { billingReviewSet(id: $id) { code } billingBoxes(first: 10) { edges { node { databaseId } } } }', { id: setId }, foreign);
  t.is(seen.billingReviewSet, null);
  t.deepEqual(seen.billingBoxes.edges, []);
  const refused = await graphql(app, 'mutation ($id: ID!) { reopenBillingBox(id: $id) { state } }', { id: boxes[1] }, foreign);
  t.is(refused.body.errors?.[0].extensions?.code, 'not_found');
  t.not((await app.request('GET', `/main/v1/billing-box/${boxes[1]}`)).body.state, 'open');
  t.truthy(adminId);
});
