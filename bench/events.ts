// `npm run bench -- events`: (1) the overhead the outbox adds to session ingestion: the same
// ingestion (ingestSession, 32 concurrent submitters, no processing; its statements carry the
// sessions that arrive together, as HTTP submissions' do) with its events recorded and with event
// rows skipped by a trigger, alternating rounds in the same run after a round of each;
// (2) webhook delivery throughput to a local receiver, against plain HTTP POSTs of the same bodies
// to it from one client.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { createCustomer, upsertCustomer } from '../src/parties/save-customer.service.ts';
import { createWebhookSubscription } from '../src/webhooks/webhook-subscription.service.ts';
import { openOrm, type Orm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { ingestSession } from '../src/sessions/ingest-session.service.ts';
import type { SessionSubmission } from '../src/sessions/session-submission.ts';
import { startWorker } from '../src/worker/worker.ts';
import type { BenchmarkResult } from './run.ts';
import { RUN_TAG, runId } from './run-tag.ts';

const SESSIONS = Number(process.env.BENCH_EVENT_SESSIONS ?? 4000);
const DELIVERIES = Number(process.env.BENCH_EVENT_DELIVERIES ?? 1000);
const ROUNDS = 5;
const ADMIN = runId('bench-events');

let counter = 0;
function submission(): SessionSubmission {
  const n = `${RUN_TAG}-${++counter}`;
  return {
    source: 'charge_session', sessionId: `EV-${n}`, sender: 'NLBEN', cpoId: 'NL*BEN', evcoId: 'NL-BEN-C00000001', startAt: new Date('2026-10-01T10:00:00Z'),
    endAt: new Date('2026-10-01T11:00:00Z'), energyKwh: '10', idleSeconds: 0, timeZone: 'Europe/Amsterdam', country: 'NL', evseId: null, evseUid: null,
    payload: { session_id: `EV-${n}`, cpo_id: 'NL*BEN', evco_id: 'NL-BEN-C00000001', total_energy_kwh: '10' },
  };
}

async function ingestRound(orm: Orm): Promise<number> {
  const em = scopedEm(orm);
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next++ < SESSIONS) await ingestSession(em, submission(), { kick: false });
  }));
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function deliveryThroughput(orm: Orm, url: string): Promise<void> {
  // The receiver listens on 127.0.0.1, a private target (src/webhooks/webhook-target.ts).
  process.env.SVC_WEBHOOK_PRIVATE_TARGETS = 'allow';
  let received = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => { done = resolve; });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => { response.writeHead(204).end(); if (++received === DELIVERIES) done(); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  // Baseline: the same number of POSTs from one client, one at a time (what a subscription's delivery does).
  const body = JSON.stringify({ id: '1', occurred_at: new Date().toISOString(), modification_kind: 'update', kind: 'customer', data: { id: 'x', name: 'y' } });
  let started = performance.now();
  for (let i = 0; i < DELIVERIES; i++) await fetch(target, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  const plainMs = performance.now() - started;
  received = 0;

  const em = scopedEm(orm);
  const customer = await createCustomer(em, { adminId: ADMIN, name: 'Bench customer', country: 'NL' });
  await createWebhookSubscription(scopedEm(orm), { url: target, kinds: ['customer'], secret: 'bench-secret-0123456789', adminIds: [ADMIN] });
  const worker = await startWorker(orm, url);
  started = performance.now();
  for (let i = 0; i < DELIVERIES; i++) await upsertCustomer(scopedEm(orm), { id: customer.id }, { name: `Name ${i}` });
  const committedMs = performance.now() - started;
  await all;
  const deliveredMs = performance.now() - started;
  await worker.stop();
  server.close();
  console.log(`  webhook delivery: ${DELIVERIES} events committed in ${(committedMs / 1000).toFixed(1)} s, all delivered after ${(deliveredMs / 1000).toFixed(1)} s `
    + `(${(DELIVERIES / (deliveredMs / 1000)).toFixed(0)} events/s); plain POSTs of the same bodies: ${(DELIVERIES / (plainMs / 1000)).toFixed(0)}/s `
    + `(ratio ${(deliveredMs / plainMs).toFixed(2)})`);
}

export async function eventsBenchmark(url: string): Promise<BenchmarkResult> {
  // The events' data is rendered by the REST renderers (in a process of its own no app registered them).
  registerRestEventRenderers();
  const orm = await openOrm(ormConfig(url, { poolMax: 8 }));
  await createAdministration(scopedEm(orm), { id: ADMIN, name: 'Bench events', currency: 'EUR', country: 'NL' });
  const withEvents: number[] = [];
  const without: number[] = [];
  const connection = orm.em.getConnection();
  // The baseline skips event rows with a BEFORE trigger that returns null (a rule cannot skip the
  // ingestion's CTE insert); it still pays that trigger's call, so the overhead shown is a little low.
  await connection.execute('create or replace function svc_event_bench_skip() returns trigger language plpgsql as $$ begin return null; end $$');
  // A round of each first, not counted: the first round ran on a cold process (JIT, caches, the pool's
  // connections), and it was always one with the outbox.
  for (let round = -1; round < ROUNDS; round++) {
    const measured = await ingestRound(orm);
    if (round >= 0) withEvents.push(measured);
    await connection.execute('create trigger svc_event_bench_off before insert on svc_event for each row execute function svc_event_bench_skip()');
    const baseline = await ingestRound(orm);
    if (round >= 0) without.push(baseline);
    await connection.execute('drop trigger svc_event_bench_off on svc_event');
  }
  console.log(`  ingestion of ${SESSIONS} sessions, ${ROUNDS} rounds each: with the outbox ${withEvents.map((ms) => ms.toFixed(0)).join(', ')} ms; `
    + `without ${without.map((ms) => ms.toFixed(0)).join(', ')} ms (medians compared; target: overhead under 15 %)`);
  await deliveryThroughput(orm, url);
  await orm.close();
  return { name: 'session ingestion with the outbox', unit: 'ms', figure: median(withEvents), baseline: median(without), baselineLabel: 'the same ingestion without event rows' };
}
