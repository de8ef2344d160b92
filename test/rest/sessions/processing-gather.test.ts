// The worker gathers sessions (src/worker/tasks.ts GATHER_MS): after a batch that was not full it
// claims the next one only after the gathering pause, so that sessions received meanwhile are
// processed in one batch, one transaction (one updated_at), rather than one batch each. `npm test`
// runs every other file with a short pause (test/run.ts SVC_PROCESSING_GATHER_MS), since their flows
// wait for each session; this file runs with a long one of its own, to see it.
process.env.SVC_PROCESSING_GATHER_MS = '3000';

const test = (await import('ava')).default;
const { processed, sessionBody, startPricedApp, submitSession } = await import('../../helpers/session-factories.ts');

const GATHER_MS = Number(process.env.SVC_PROCESSING_GATHER_MS);

test('sessions received while the worker gathers wait for the pause, then go in one batch', async (t) => {
  const { app, evcoId } = await startPricedApp();
  t.teardown(() => app.close());
  const first = await processed(app, (await submitSession(app, sessionBody(evcoId))).id);
  t.is(first.status, 'priced');
  // The worker processed the first one alone and now pauses: the next two arrive within the pause.
  const second = await submitSession(app, sessionBody(evcoId));
  await new Promise((resolve) => setTimeout(resolve, 400));
  t.is((await app.request('GET', `/main/v1/msp-charge-session/${second.id}`)).body.status, 'received', 'not processed alone, at once');
  const third = await submitSession(app, sessionBody(evcoId));
  const [b, c] = [await processed(app, second.id), await processed(app, third.id)];
  t.is(b.status, 'priced');
  t.is(c.status, 'priced');
  t.is(b.updated_at, c.updated_at, 'one batch: one transaction');
  t.true(Date.parse(b.updated_at) - Date.parse(first.updated_at) >= GATHER_MS, `claimed after the pause: ${first.updated_at} then ${b.updated_at}`);
});
