// A processing batch bills its priced sessions in its transaction (record-outcomes.ts): an
// administration with a series for sessions gets their items in its box; a batch whose
// administrations have none runs no statement of the billing core (its temporary tables), and its
// sessions are priced all the same.
import test from 'ava';
import { processSessionBatch } from '../../../src/session-processing/process-sessions.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { countQueries } from '../../helpers/sql-count.ts';
import { pricedSubscription, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  // The tests run the batches themselves, to see their statements.
  await app.stopWorker();
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const billingCore = (queries: string[]) => queries.filter((q) => /billing_candidate/.test(q));

test.serial('a batch of administrations without a series for sessions: priced, without the billing core\'s statements', async (t) => {
  const admin = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, admin);
  const ids = [
    (await submitSession(app, sessionBody(sub.evcoId))).id,
    (await submitSession(app, sessionBody(sub.evcoId, { total_energy_kwh: '3' }))).id,
  ];
  let processed = 0;
  const queries = await countQueries(app.orm, async () => { processed = await processSessionBatch(app.orm, 500); });
  t.is(processed, ids.length);
  t.deepEqual(billingCore(queries), []);
  for (const id of ids) {
    const session = (await app.request('GET', api(`/msp-charge-session/${id}`))).body;
    t.is(session.status, 'priced', id);
  }
});

test.serial('a batch with an administration that has a series: its sessions are billed in its box, the others priced', async (t) => {
  const billed = (await createAdministration(app)).id;
  await configureBilling(app, billed);
  await createSeries(app, billed);
  const other = (await createAdministration(app)).id;
  const [mine, theirs] = [await pricedSubscription(app, billed), await pricedSubscription(app, other)];
  const billedId = (await submitSession(app, sessionBody(mine.evcoId))).id;
  const otherId = (await submitSession(app, sessionBody(theirs.evcoId))).id;
  let processed = 0;
  const queries = await countQueries(app.orm, async () => { processed = await processSessionBatch(app.orm, 500); });
  t.is(processed, 2);
  t.true(billingCore(queries).length > 0);
  const boxes = (await boxesOf(app)).filter((b) => b.admin_id === billed);
  t.is(boxes.length, 1);
  const items = (await app.request('GET', api(`/billing-box/${boxes[0].id}/msp-charge-session`))).body.items as any[];
  t.deepEqual(items.map((i) => i.msp_charge_session_id), [billedId]);
  t.deepEqual((await boxesOf(app)).filter((b) => b.admin_id === other), []);
  t.is((await app.request('GET', api(`/msp-charge-session/${otherId}`))).body.status, 'priced');
});
