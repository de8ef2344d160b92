// The billing backfill you can watch (decisions: "Running"): creating the first series bills the
// sessions priced before in batches; GET /billing-backfill (extension) and GraphQL billingBackfills
// answer per administration the caller sees {admin_id, state, batches and sessions done of their
// totals, started_at, finished_at, error}; each batch is a log line; the metrics carry it.
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { lockWaits } from '../../helpers/db.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { cpoSessionBody, createLocatedEvse, createReimbursementPlan, reimburseEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { logLines } from '../../helpers/log.ts';
import { pricedSessionsSql } from '../../helpers/priced-sessions.ts';
import { parsePrometheus, sampleValue } from '../../helpers/prometheus.ts';
import { ensureVatRate, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { data } from '../../schema/graphql.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { runBillingBackfill } from '../../../src/billing/billing-backfill.service.ts';

// Batches of two: five sessions are three batches.
process.env.SVC_BILLING_BACKFILL_BATCH = '2';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

async function backfillOf(adminId: string, auth = app.admin) {
  const r = await app.request('GET', `/main/v1/billing-backfill?admin_id=${adminId}`, { auth });
  if (r.status !== 200) throw new Error(`billing-backfill: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items as Record<string, any>[];
}

test('the first series bills five earlier sessions in three batches, reported in REST, GraphQL, the log and the metrics', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const customer = await pricedSubscription(app, admin.id);
  for (let day = 1; day <= 5; day++) {
    const session = await submitSession(app, sessionBody(customer.evcoId, { start_date_time: `2026-09-0${day}T10:00:00+02:00`, end_date_time: `2026-09-0${day}T11:00:00+02:00` }));
    t.is((await processed(app, session.id)).status, 'priced');
  }
  t.deepEqual(await backfillOf(admin.id), [], 'nothing before the first series');

  await createSeries(app, admin.id);
  let items = await backfillOf(admin.id);
  t.is(items.length, 1);
  t.true(['pending', 'running', 'done'].includes(items[0]!.state));
  for (const until = Date.now() + 30_000; items[0]!.state !== 'done' && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    items = await backfillOf(admin.id);
  }
  const [backfill] = items;
  t.like(backfill, { admin_id: admin.id, state: 'done', batches_done: 3, batches_total: 3, sessions_done: 5, sessions_total: 5, error: null });
  t.true(Date.parse(backfill!.started_at) <= Date.parse(backfill!.finished_at));

  // The log: the plan, a line per batch, the end.
  const lines = logLines().filter((line) => line.admin_id === admin.id && line.job === 'billing_backfill').map((line) => line.msg as string);
  // Two lanes bill the batches (the first a fifth of the others, rounded up: 1, 2 and 2 sessions), and
  // they may commit in any order: the first batch's lane may wait for the second's box (a lane that
  // began first creates it), which then commits the third as well. The first line counts 1 or 2
  // sessions, the second 3 or 4.
  const batchLines = lines.filter((line) => /batch \d/.test(line)).map((line) => line.replace(/^.*: /, ''));
  t.is(batchLines.length, 3);
  t.regex(batchLines[0]!, /^batch 1 of 3 \((1|2) of 5 sessions\)$/);
  t.regex(batchLines[1]!, /^batch 2 of 3 \((3|4) of 5 sessions\)$/);
  t.is(batchLines[2], 'batch 3 of 3 (5 of 5 sessions)');
  t.true(lines.some((line) => line.endsWith('5 sessions in 3 batches of up to 2')));
  t.true(lines.some((line) => /: done, 5 sessions in \d+\.\d s$/.test(line)));

  // GraphQL, the same.
  const graph = await data(app, `query($adminId: String) { billingBackfills(adminId: $adminId) { edges { node {
    adminId state batchesDone batchesTotal sessionsDone sessionsTotal startedAt finishedAt error } } } }`, { adminId: admin.id });
  t.like(graph.billingBackfills.edges[0].node, { adminId: admin.id, state: 'DONE', batchesDone: 3, batchesTotal: 3, sessionsDone: 5, sessionsTotal: 5, error: null });

  // The metrics.
  const metrics = parsePrometheus((await app.request('GET', '/main/metrics')).body as string).samples;
  t.is(sampleValue(metrics, 'svc_billing_backfill_sessions_done', { admin_id: admin.id }), 5);
  t.is(sampleValue(metrics, 'svc_billing_backfill_batches_total', { admin_id: admin.id }), 3);
  t.is(sampleValue(metrics, 'svc_billing_backfill_state', { admin_id: admin.id, state: 'done' }), 1);
});

test('a credential limited to administrations sees only theirs', async (t) => {
  const [mine, other] = [await createAdministration(app), await createAdministration(app)];
  for (const admin of [mine, other]) {
    await configureBilling(app, admin.id);
    await createSeries(app, admin.id);
  }
  const limited = await app.credential({ role: 'readonly', adminIds: [mine.id] });
  const seen = (await app.request('GET', '/main/v1/billing-backfill', { auth: limited })).body.items.map((item: { admin_id: string }) => item.admin_id);
  t.deepEqual(seen, [mine.id]);
  t.deepEqual(await backfillOf(other.id, limited), []);
  const graph = await data(app, '{ billingBackfills { edges { node { adminId } } } }', {}, limited);
  t.deepEqual(graph.billingBackfills.edges.map((edge: { node: { adminId: string } }) => edge.node.adminId), [mine.id]);
});

// Serial (before the others): it holds every review-set insert of the database back.
test.serial('a session repriced while a backfill batch bills it is billed once, at its new price', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const customer = await pricedSubscription(app, admin.id);
  const ids: string[] = [];
  for (let day = 1; day <= 4; day++) {
    const session = await submitSession(app, sessionBody(customer.evcoId, { start_date_time: `2026-09-0${day}T10:00:00+02:00`, end_date_time: `2026-09-0${day}T11:00:00+02:00` }));
    t.is((await processed(app, session.id)).status, 'priced');
    ids.push(session.id);
  }
  const [before] = await pricingResults(app, ids[0]!);
  await okCall(app, 'POST', `/rate-plan/${customer.ratePlanId}/version`, { valid_from: '2025-06-01T00:00:00Z', definition: { rates: { energy: { price: '0.60' } }, rules: [] } });

  // Four sessions in batches of two: both lanes wait. The first session is repriced; its billing runs
  // while the batch that read it is in flight.
  await repricedWhileBackfillHeld(t, admin.id, 2, ids[0]!, 'the repricing waits too');

  for (let i = 0; i < 400 && (await pricingResults(app, ids[0]!)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  await processed(app, ids[0]!);
  let state = '';
  for (const until = Date.now() + 30_000; state !== 'done' && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    state = (await backfillOf(admin.id))[0]?.state ?? '';
  }
  t.is(state, 'done');
  const latest = (await pricingResults(app, ids[0]!)).find((result) => result.version === 2);
  t.truthy(latest, 'repriced');
  t.not(latest.total_excl_vat, before.total_excl_vat);
  const [box] = await boxesOfAdmin(admin.id);
  const items = (await okCall(app, 'GET', `/billing-box/${box.id}/msp-charge-session?page_size=100`)).items as Record<string, any>[];
  t.deepEqual(items.filter((item) => item.msp_charge_session_id === ids[0]).map((item) => [item.entry, item.pricing_version, item.amount_excl_vat]),
    [['original', 2, latest.total_excl_vat]]);
  t.is(items.length, 4, 'each session once');
});

// Found in review (2026-11-29): a session priced before the first series that drops out while a
// backfill batch bills it. The drop-out's batch found no item of it to withdraw (the batch's was not
// committed yet) and did not wait for the batch, which then billed the customer for a drop-out.
test.serial('a session that drops out while a backfill batch bills it is not billed', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const customer = await pricedSubscription(app, admin.id);
  const stored = await submitSession(app, sessionBody(customer.evcoId, { start_date_time: '2026-09-01T10:00:00+02:00', end_date_time: '2026-09-01T11:00:00+02:00' }));
  t.is((await processed(app, stored.id)).status, 'priced');
  // Its token's link made defunct: priced again, it drops out (no valid subscription).
  const link = (await okCall(app, 'GET', `/msp-token-subscription/${customer.subscriptionId}`)).links[0].id;
  await okCall(app, 'PUT', `/msp-token-link/${link}/defunct`);

  // The backfill's batch reads the session as priced; the drop-out's batch waits for it before it looks for items to withdraw.
  await repricedWhileBackfillHeld(t, admin.id, 1, stored.id, 'the drop-out waits');
  let session = await processed(app, stored.id);
  for (const until = Date.now() + 15_000; session.status === 'received' && Date.now() < until;) session = await processed(app, stored.id);
  t.like(session, { status: 'dropout', dropout_reason: 'no_valid_subscription' });
  t.like(await backfillDone(admin.id), { state: 'done' });
  const items = (await Promise.all((await boxesOfAdmin(admin.id)).map(async (box) =>
    (await okCall(app, 'GET', `/billing-box/${box.id}/msp-charge-session?page_size=100`)).items as Record<string, any>[]))).flat();
  t.deepEqual(items.map((item) => [item.msp_charge_session_id, item.entry]), [], 'billed by the batch, withdrawn by the drop-out');
});

// Since 2026-11-29, found by probing: two runs of one administration's backfill at once (two
// processes, two series created at once, the job's batches beside another's of other sizes) billed
// sessions twice: a batch of one run marked a session new while the other run's batch had not
// committed its item, then found that item committed and billed the session again as version 2,
// beside it (the unique key holds the version); both runs wrote the progress row. Now one run of an
// administration at a time (backfill-lock.ts): another answers at once and its job is tried again
// after. The first run's batch that bills the last session is held in flight (its item waits for
// the test) while a second run, of batches of one, is asked for.
test.serial('a second backfill of the administration while one runs bills nothing beside it and is tried again after: each session once, the progress honest', async (t) => {
  await ensureVatRate(app);
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const conn = app.orm.em.getConnection();
  await conn.execute(pricedSessionsSql({ adminId: admin.id, customerId: customer.id, count: 3, tag: `twice-${process.pid}` }));
  const ids = (await conn.execute<{ id: string }[]>('select id from msp_charge_session where driver_admin_id = ? order by id', [admin.id])).map((row) => row.id);
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const held = async () => Number((await db.query(`select count(*)::int as n from pg_locks
    where locktype = 'advisory' and classid = 4711 and objid = 1 and objsubid = 2 and not granted`)).rows[0].n);
  let second: number | string = '';
  try {
    await db.query('select pg_advisory_lock(4711, 1)');
    await db.query(`create function hold_last_item() returns trigger language plpgsql as $$ begin
        perform pg_advisory_xact_lock_shared(4711, 1); return new; end $$`);
    await db.query(`create trigger hold_last_item before insert on billing_item for each row
      when (new.subject_id = '${ids[2]}') execute function hold_last_item()`);
    // The worker's run, in batches of two: the first two sessions, then the last two (held).
    await createSeries(app, admin.id);
    for (const until = Date.now() + 15_000; await held() < 1 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
    t.is(await held(), 1, 'the first run\'s batch is held');
    let timer: NodeJS.Timeout | undefined;
    second = await Promise.race([runBillingBackfill(scopedEm(app.orm), admin.id, 1),
      new Promise<string>((resolve) => { timer = setTimeout(() => resolve('still running'), 10_000); })]);
    clearTimeout(timer);
    t.is(second, 0, 'the second run bills nothing while the first runs');
    t.like((await backfillOf(admin.id))[0], { state: 'running', sessions_total: 3, batches_total: 2 }, 'the first run\'s progress');
  } finally {
    await db.query('select pg_advisory_unlock(4711, 1)');
    await db.query('drop trigger hold_last_item on billing_item');
    await db.query('drop function hold_last_item()');
    await db.end();
  }
  // The first run ends; the job of the second runs after it, and finds each session billed.
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const [{ n }] = await conn.execute<{ n: number }[]>(`select count(*)::int as n from graphile_worker._private_jobs
      where task_id = (select id from graphile_worker._private_tasks where identifier = 'billing_backfill') and payload->>'admin_id' = ?`, [admin.id]);
    if (n === 0 && (await backfillOf(admin.id))[0]?.state === 'done') break;
  }
  t.like((await backfillOf(admin.id))[0], { state: 'done', batches_done: 2, batches_total: 2, sessions_done: 3, sessions_total: 3, error: null });
  const items = (await Promise.all((await boxesOfAdmin(admin.id)).map(async (box) =>
    (await okCall(app, 'GET', `/billing-box/${box.id}/msp-charge-session?page_size=100`)).items as Record<string, any>[]))).flat();
  t.deepEqual(items.map((item) => [item.msp_charge_session_id, item.entry, item.pricing_version]).sort(),
    ids.map((id) => [id, 'original', 1]).sort(), 'each session once');
  t.true(logLines().some((line) => line.admin_id === admin.id && /another run is under way/.test(line.msg as string)));
});

/**
 * Creates the administration's first series while every review-set insert of the database is held
 * back: its backfill's batches stop where they first create a review-set, after reading their
 * sessions. Once `lanes` batches wait, the session is repriced, and its processing must wait for
 * them too (`waitsToo`); then the hold ends.
 */
async function repricedWhileBackfillHeld(t: ExecutionContext, adminId: string, lanes: number, sessionId: string, waitsToo: string): Promise<void> {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const waiting = () => lockWaits(db);
  const until = async (done: () => Promise<boolean>) => {
    for (const end = Date.now() + 15_000; !await done() && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  try {
    await db.query('begin');
    await db.query('lock table billing_review_set in share mode');
    await createSeries(app, adminId);
    await until(async () => await waiting() >= lanes);
    const batches = await waiting();
    t.true(batches >= lanes, 'the backfill\'s batches wait');
    await okCall(app, 'POST', `/msp-charge-session/${sessionId}/reprice`);
    await until(async () => await waiting() > batches);
    t.true(await waiting() > batches, waitsToo);
    await db.query('commit');
  } finally {
    await db.end();
  }
}

/** The administration's boxes (through a credential limited to it: the list has no administration filter). */
async function boxesOfAdmin(adminId: string): Promise<Record<string, any>[]> {
  const auth = await app.credential({ role: 'readonly', adminIds: [adminId] });
  const r = await app.request('GET', '/main/v1/billing-box', { auth });
  if (r.status !== 200) throw new Error(`billing-box: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items;
}

async function backfillDone(adminId: string) {
  let items = await backfillOf(adminId);
  for (const until = Date.now() + 30_000; items[0]?.state !== 'done' && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    items = await backfillOf(adminId);
  }
  return items[0];
}

test('a series that starts billing MSP sessions bills the sessions priced before', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  // The administration's only series bills reimbursements: its sessions are not billed.
  const series = await createSeries(app, admin.id, { item_sources: ['cpo_reimbursement'] });
  const customer = await pricedSubscription(app, admin.id);
  for (let day = 1; day <= 3; day++) {
    const session = await submitSession(app, sessionBody(customer.evcoId, { start_date_time: `2026-09-0${day}T10:00:00+02:00`, end_date_time: `2026-09-0${day}T11:00:00+02:00` }));
    t.is((await processed(app, session.id)).status, 'priced');
  }
  t.deepEqual(await boxesOfAdmin(admin.id), []);

  // Renaming it bills nothing new; billing every source bills the three sessions, once.
  await okCall(app, 'POST', `/billing-series/${series.id}`, { name: 'Renamed' });
  t.like(await backfillDone(admin.id), { state: 'done' });
  t.deepEqual(await boxesOfAdmin(admin.id), []);
  await okCall(app, 'POST', `/billing-series/${series.id}`, { item_sources: [] });
  t.like(await backfillDone(admin.id), { state: 'done', sessions_done: 3 });
  const boxes = await boxesOfAdmin(admin.id);
  t.deepEqual(boxes.map((box) => [box.billing_series_id, box.total_amount_excl_vat]), [[series.id, '15.00']]);
});

test('reimbursements of CPO sessions processed before a series bills them are billed by the backfill', async (t) => {
  const admin = (await createAdministration(app)).id;
  await configureBilling(app, admin);
  await ensureVatRate(app);
  const owner = await createCustomer(app, admin, { name: 'Owner', reimbursement_vat: 'Applies' });
  const evse = await createLocatedEvse(app, admin);
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.20' });
  await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  for (const kwh of ['10', '20']) {
    const stored = await submitSession(app, cpoSessionBody(evse.evse_uid, { total_energy_kwh: kwh }), '/main/v1/cpo-charge-session');
    t.like(await settledCpoSession(app, stored.id), { status: 'processed' });
  }
  t.deepEqual(await boxesOfAdmin(admin), []);

  const series = await createSeries(app, admin, { primary_document_type: 'self_billing_invoice', item_sources: ['cpo_reimbursement'] });
  t.like(await backfillDone(admin), { state: 'done', sessions_done: 2 });
  // Planned as billed: a first batch of one (a fifth of two, rounded up), then one of the other.
  const planned = logLines().filter((line) => line.admin_id === admin && line.job === 'billing_backfill').map((line) => (line.msg as string).replace(/^.*: /, ''));
  t.deepEqual(planned.filter((line) => /^batch \d|in \d+ batches/.test(line)),
    ['2 sessions in 2 batches of up to 2', 'batch 1 of 2 (1 of 2 sessions)', 'batch 2 of 2 (2 of 2 sessions)']);
  const boxes = await boxesOfAdmin(admin);
  t.deepEqual(boxes.map((box) => [box.billing_series_id, box.party_id, box.total_amount_excl_vat]), [[series.id, owner.id, '-6.00']]);
});
