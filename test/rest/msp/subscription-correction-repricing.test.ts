// The repricing a plan-or-customer correction asks for is a job added in the correction's own
// transaction: gone with a rollback, there once it committed, and run by whichever worker starts
// next, also when the process that committed it died right after the commit.
import test from 'ava';
import { SubscriptionCorrection } from '../../../src/msp/subscription-correction.entity.ts';
import { correctPlanOrCustomer } from '../../../src/msp/subscription-correction.service.ts';
import type { Em } from '../../../src/platform/orm.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startWorker } from '../../../src/worker/worker.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createSubscriptionPlan } from '../../helpers/factories.ts';
import { createRatePlan, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
/** A subscription with a priced session after T, and a cheaper plan to correct it to. */
let setup: { subscriptionId: string; sessionId: string; cheaperPlanId: string };
test.before(async () => {
  app = await startTestApp();
  const adminId = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, adminId);
  const cheaper = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price: '0.10' } } } }]);
  const plan = await createSubscriptionPlan(app, adminId, { rate_plan_id: cheaper });
  const session = await submitSession(app, sessionBody(sub.evcoId, { start_date_time: '2026-03-10T10:00:00+01:00', end_date_time: '2026-03-10T11:00:00+01:00' }));
  if ((await processed(app, session.id)).status !== 'priced') throw new Error('the session was not priced');
  // From here on no worker runs until a test starts one: jobs stay where they are.
  await app.stopWorker();
  setup = { subscriptionId: sub.subscriptionId, sessionId: session.id, cheaperPlanId: plan.id };
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const T = '2026-03-01T00:00:00.000Z';

/** The correction ids of the repricing jobs in the queue (graphile-worker's table). */
async function repricingJobs(em: Em = scopedEm(app.orm)): Promise<string[]> {
  const rows = await em.execute<{ payload: { correction_id: string } }[]>(`select j.payload from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'subscription_corrected' order by j.id`);
  return rows.map((row) => row.payload.correction_id);
}

/** The queue's jobs as the worker sees them: what a wait that timed out names. */
async function queueState(): Promise<string> {
  const jobs = await scopedEm(app.orm).execute(`select t.identifier, j.key, j.attempts, j.last_error, j.run_at, j.locked_at, j.is_available
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`);
  return JSON.stringify(jobs);
}

/** `read` until `done` holds, for at most 30 s (the repricing job and the pricing it asks for, on a machine the whole suite loads). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the condition never held; the queue: ${await queueState()}`);
}

test.serial('a correction that does not commit leaves no repricing job', async (t) => {
  const refused = await app.request('POST', api(`/msp-token-subscription/${setup.subscriptionId}/plan-or-customer-correction`), {
    body: { valid_from: T, new_plan_id: setup.cheaperPlanId, new_customer_id: 'garbage' },
  });
  t.is(refused.status, 400);
  t.deepEqual(await repricingJobs(), []);

  // The correction itself succeeds, its job is there inside the transaction, and the transaction rolls back.
  let inside: string[] = [];
  await t.throwsAsync(scopedEm(app.orm).transactional(async (tx) => {
    const result = await correctPlanOrCustomer(tx, setup.subscriptionId, { validFrom: new Date(T), newPlanId: setup.cheaperPlanId });
    inside = await repricingJobs(tx);
    t.deepEqual(inside, [result.correction.id]);
    throw new Error('rolled back after the correction');
  }), { message: 'rolled back after the correction' });
  t.is(inside.length, 1);
  t.deepEqual(await repricingJobs(), []);
  t.is(await scopedEm(app.orm).count(SubscriptionCorrection, { oldSubscription: setup.subscriptionId }), 0);
  t.is((await app.request('GET', api(`/msp-token-subscription/${setup.subscriptionId}`))).body.valid_until, null);
});

test.serial('a committed correction leaves its job; a worker started after a crash reprices', async (t) => {
  const correction = await app.request('POST', api(`/msp-token-subscription/${setup.subscriptionId}/plan-or-customer-correction`), {
    body: { valid_from: T, new_plan_id: setup.cheaperPlanId },
  });
  t.is(correction.status, 200, JSON.stringify(correction.body));
  // The process that committed could die now: the job is in the database, nothing else has run.
  t.deepEqual(await repricingJobs(), [correction.body.correction.id]);
  t.deepEqual((await pricingResults(app, setup.sessionId)).map((r) => r.version), [1]);

  const worker = await startWorker(app.orm, app.databaseUrl);
  t.teardown(() => worker.stop());
  const results = await until(() => pricingResults(app, setup.sessionId), (items) => items.length >= 2);
  t.deepEqual(results.map((r) => r.version), [1, 2]);
  t.is(results[0].total_excl_vat, '5.00');
  t.is(results[1].total_excl_vat, '1.00');
  t.is(results[1].subscription_id, correction.body.new_subscription.id);
  t.deepEqual(await until(() => repricingJobs(), (jobs) => jobs.length === 0), [], 'the job is done once');
});
