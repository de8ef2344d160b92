// GET /main/metrics (decisions: "Running"): any credential without an administration limit; the
// Prometheus text format (read strictly here); a request just made is counted under its route
// pattern; the job queue, webhook delivery, billing backfill and pools are there.
import test from 'ava';
import { addJob } from '../../../src/platform/jobs.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { parsePrometheus, sampleValue } from '../../helpers/prometheus.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

async function scrape(): Promise<ReturnType<typeof parsePrometheus>> {
  const r = await app.request('GET', '/main/metrics');
  if (r.status !== 200) throw new Error(`metrics: ${r.status} ${JSON.stringify(r.body)}`);
  t0ContentType(r.headers.get('content-type'));
  return parsePrometheus(r.body as string);
}

function t0ContentType(type: string | null): void {
  if (!type?.startsWith('text/plain; version=0.0.4')) throw new Error(`content type ${type}`);
}

test('a credential is needed, one without an administration limit; other methods are 405', async (t) => {
  t.is((await app.request('GET', '/main/metrics', { auth: null })).status, 401);
  const admin = await createAdministration(app);
  const limited = await app.credential({ role: 'readonly', adminIds: [admin.id] });
  const refused = await app.request('GET', '/main/metrics', { auth: limited });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'forbidden');
  const readonly = await app.credential({ role: 'readonly' });
  t.is((await app.request('GET', '/main/metrics', { auth: readonly })).status, 200);
  // Found by probing: an App credential without a limit read every administration's figures.
  const appCredential = await app.credential({ role: 'app' });
  t.like(await app.request('GET', '/main/metrics', { auth: appCredential }), { status: 403, body: { code: 'forbidden' } });
  t.is((await app.request('POST', '/main/metrics')).status, 405);
});

test('the text parses as Prometheus and counts a request just made, by method, route pattern and status', async (t) => {
  const customer = await createCustomer(app, (await createAdministration(app)).id);
  const path = { method: 'GET', route: '/main/v1/customer/{id}', status: '200' };
  const before = sampleValue((await scrape()).samples, 'svc_http_requests_total', path) ?? 0;
  t.is((await app.request('GET', `/main/v1/customer/${customer.id}`)).status, 200);
  const { samples, types } = await scrape();
  t.is(sampleValue(samples, 'svc_http_requests_total', path), before + 1);
  t.is(types.get('svc_http_requests_total'), 'counter');
  t.is(types.get('svc_http_request_duration_seconds'), 'histogram');
  t.is(sampleValue(samples, 'svc_http_request_duration_seconds_count', path), before + 1);
  t.true(sampleValue(samples, 'svc_http_request_duration_seconds_bucket', { ...path, le: '+Inf' })! >= 1);
  // An unknown path is not a series of its own.
  t.is((await app.request('GET', '/main/v1/no-such-thing/123')).status, 404);
  const after = (await scrape()).samples;
  t.true(sampleValue(after, 'svc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })! >= 1);
  t.false(after.some((s) => s.labels.route?.includes('no-such-thing')));
});

test('jobs, webhooks, billing backfill, pools and the process are reported; every source read', async (t) => {
  // A job of its own, due in a year: queued, not running.
  await addJob(app.orm.em.getConnection(), 'metrics_test_task', {}, { runAt: new Date(Date.now() + 365 * 86_400_000) });
  const { samples, types } = await scrape();
  for (const source of ['jobs', 'webhooks', 'billing_backfill', 'pools']) t.is(sampleValue(samples, 'svc_metrics_source_up', { source }), 1, source);
  for (const name of ['svc_jobs', 'svc_webhook_subscriptions', 'svc_webhook_backlog_events', 'svc_db_pool_connections', 'svc_db_pool_waiting',
    'svc_billing_backfill_sessions_done', 'svc_billing_backfill_state', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds']) {
    t.true(types.has(name), name);
  }
  t.is(sampleValue(samples, 'svc_webhook_subscriptions', { state: 'failing' }), 0);
  t.is(sampleValue(samples, 'svc_db_pool_connections', { pool: 'requests', state: 'max' }), 5);
  const open = sampleValue(samples, 'svc_db_pool_connections', { pool: 'requests', state: 'in_use' })!
    + sampleValue(samples, 'svc_db_pool_connections', { pool: 'requests', state: 'idle' })!;
  t.true(open >= 1, 'the requests so far opened connections');
  t.true(sampleValue(samples, 'svc_db_pool_waiting', { pool: 'requests' })! >= 0);
  t.is(sampleValue(samples, 'svc_jobs', { task: 'metrics_test_task', state: 'queued' }), 1);
  t.is(sampleValue(samples, 'svc_jobs', { task: 'metrics_test_task', state: 'running' }), 0);
  t.is(sampleValue(samples, 'svc_jobs', { task: 'metrics_test_task', state: 'failed' }), 0);
});
