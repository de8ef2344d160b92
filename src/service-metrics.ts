// The series of GET /main/metrics (decisions: "Running" lists them): HTTP requests and their
// durations (counted by the request log, src/platform/http/request-log.ts), the process
// (prom-client's defaults), and, read from the database at each scrape, the job queue, webhook
// delivery, the billing backfill and the connection pools of this process. A composition root: it
// reads several areas; the endpoint is rest/operations/metrics.ts.
import { scopedEm } from './access/admin-scope.ts';
import { allBackfills } from './billing/billing-backfill.queries.ts';
import { jobQueueStats } from './platform/job-queue-stats.ts';
import { ServiceMetrics } from './platform/metrics.ts';
import type { Orm } from './platform/orm.ts';
import { poolStats } from './platform/pool-stats.ts';
import { webhookBacklog } from './webhooks/webhook-backlog.queries.ts';

/**
 * The metrics of an app: `orm` is the ORM of its requests (the scrape reads through it); `pools`
 * names further ORMs of this process whose pools are reported beside it (the service's own).
 */
export function serviceMetrics(orm: Orm, pools: Record<string, Orm> = {}): ServiceMetrics {
  const metrics = new ServiceMetrics();

  const jobs = metrics.gauge('svc_jobs', 'Jobs of the queue by task and state: queued (waiting or running), running, retrying (the last attempt failed), failed (every attempt used).', ['task', 'state']);
  metrics.addSource({
    name: 'jobs', gauges: [jobs],
    async read() {
      const stats = await jobQueueStats(orm.em.getConnection());
      jobs.reset();
      for (const row of stats) {
        for (const state of ['queued', 'running', 'retrying', 'failed'] as const) jobs.set({ task: row.task, state }, row[state]);
      }
    },
  });

  const subscriptions = metrics.gauge('svc_webhook_subscriptions', 'Webhook subscriptions by state: delivering, failing (the last attempt failed), disabled.', ['state']);
  const backlog = metrics.gauge('svc_webhook_backlog_events', 'Events the enabled webhook subscriptions are still to receive (each counted up to 100,000).');
  metrics.addSource({
    name: 'webhooks', gauges: [subscriptions, backlog],
    async read() {
      const state = await webhookBacklog(scopedEm(orm));
      subscriptions.set({ state: 'delivering' }, state.delivering);
      subscriptions.set({ state: 'failing' }, state.failing);
      subscriptions.set({ state: 'disabled' }, state.disabled);
      backlog.set(state.backlogEvents);
    },
  });

  const backfillGauges = {
    batchesDone: metrics.gauge('svc_billing_backfill_batches_done', 'Batches of the billing backfill done, per administration (its latest run).', ['admin_id']),
    batchesTotal: metrics.gauge('svc_billing_backfill_batches_total', 'Batches of the billing backfill in all, per administration.', ['admin_id']),
    sessionsDone: metrics.gauge('svc_billing_backfill_sessions_done', 'Sessions the billing backfill billed, per administration.', ['admin_id']),
    sessionsTotal: metrics.gauge('svc_billing_backfill_sessions_total', 'Sessions the billing backfill bills in all, per administration.', ['admin_id']),
    state: metrics.gauge('svc_billing_backfill_state', '1 for the state of the administration\'s billing backfill: pending, running, done or failed.', ['admin_id', 'state']),
  };
  metrics.addSource({
    name: 'billing_backfill', gauges: Object.values(backfillGauges),
    async read() {
      const rows = await allBackfills(scopedEm(orm));
      for (const gauge of Object.values(backfillGauges)) gauge.reset();
      for (const row of rows) {
        const admin = { admin_id: row.adminId };
        backfillGauges.batchesDone.set(admin, row.batchesDone);
        backfillGauges.batchesTotal.set(admin, row.batchesTotal);
        backfillGauges.sessionsDone.set(admin, row.sessionsDone);
        backfillGauges.sessionsTotal.set(admin, row.sessionsTotal);
        backfillGauges.state.set({ ...admin, state: row.state }, 1);
      }
    },
  });

  const connections = metrics.gauge('svc_db_pool_connections', 'Database connections of this process\'s pools by state (in_use, idle) and the pool\'s maximum (max).', ['pool', 'state']);
  const waiting = metrics.gauge('svc_db_pool_waiting', 'Callers waiting for a connection of the pool.', ['pool']);
  const allPools = { requests: orm, ...pools };
  metrics.addSource({
    name: 'pools', gauges: [connections, waiting],
    async read() {
      for (const [pool, owner] of Object.entries(allPools)) {
        const stats = await poolStats(owner);
        connections.set({ pool, state: 'in_use' }, stats.inUse);
        connections.set({ pool, state: 'idle' }, stats.idle);
        connections.set({ pool, state: 'max' }, stats.max);
        waiting.set({ pool }, stats.waiting);
      }
    },
  });
  return metrics;
}
