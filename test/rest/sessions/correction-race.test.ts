// A plan-or-customer correction while a processing batch prices one of the old subscription's
// sessions. Found in review (2026-11-29): the batch had resolved the session's token to the old
// subscription before the correction committed, and the correction's job, finding the session still
// `received`, left it to the batch, which then priced it for the old customer for good.
import test from 'ava';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createLocatedEvse } from '../../helpers/cpo-factories.ts';
import { lockWaits } from '../../helpers/db.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { pricedSubscription, pricingResults, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const CORRECTIONS_PENDING = `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
  where t.identifier = 'subscription_corrected'`;

test('a session being priced when a customer correction commits is priced for the new customer', async (t) => {
  const admin = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, admin);
  const other = await createCustomer(app, admin);
  // At a local EVSE: the batch takes its lock for our driver's charge at our EVSE (own-charge.ts) after it resolved the token.
  const evse = await createLocatedEvse(app, admin);
  const start = '2026-03-10T09:00:00.000Z';
  const holder = new pg.Client({ connectionString: app.databaseUrl });
  const watcher = new pg.Client({ connectionString: app.databaseUrl });
  await holder.connect();
  await watcher.connect();
  let sessionId = '';
  try {
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(736400126, hashtext($1))', [`${sub.tokenId}|${start}`]);
    sessionId = (await submitSession(app, sessionBody(sub.evcoId, {
      evse_id: evse.evse_id, start_date_time: start, end_date_time: '2026-03-10T10:00:00.000Z',
    }))).id;
    for (const until = Date.now() + 15_000; await lockWaits(watcher) === 0 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
    t.true(await lockWaits(watcher) > 0, 'the batch has resolved the session and waits');

    const correction = await okCall(app, 'POST', `/msp-token-subscription/${sub.subscriptionId}/plan-or-customer-correction`, {
      valid_from: '2026-03-01T00:00:00+01:00', new_customer_id: other.id,
    });
    const successor = correction.new_subscription.id as string;
    // The correction's job runs while the batch waits: it waits for the batch in turn (before, it found the
    // session still received, took nothing and ended).
    const jobWaitsOrEnded = async () => (await lockWaits(watcher)) > 1 || (await watcher.query(CORRECTIONS_PENDING)).rows[0].n === 0;
    for (const until = Date.now() + 15_000; !await jobWaitsOrEnded() && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
    t.true(await jobWaitsOrEnded());
    await holder.query('commit');

    let session: Record<string, any> = {};
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 25))) {
      session = await okCall(app, 'GET', `/msp-charge-session/${sessionId}`);
      if (session.status === 'priced' && session.customer_id === other.id) break;
    }
    t.like(session, { status: 'priced', customer_id: other.id, subscription_id: successor });
    const results = await pricingResults(app, sessionId);
    t.is(results.at(-1).customer_id, other.id, 'its current result is the new customer\'s');
  } finally {
    await holder.end();
    await watcher.end();
  }
});
