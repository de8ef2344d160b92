import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { startWorker } from '../../../src/worker/worker.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('sessions received while no worker runs are priced when one starts again', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, adminId);
  await app.stopWorker();
  const stored = await Promise.all([1, 2, 3].map(() => submitSession(app, sessionBody(evcoId))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const { id } of stored) t.is((await app.request('GET', `/main/v1/msp-charge-session/${id}`)).body.status, 'received');
  const worker = await startWorker(app.orm, app.databaseUrl);
  t.teardown(() => worker.stop());
  for (const { id } of stored) {
    t.is((await processed(app, id)).status, 'priced');
    t.is((await pricingResults(app, id)).length, 1);
  }
});
