// Delivering a subscription's events (decisions.md "Events"): the next event after the cursor of
// the subscription's kinds and administrations, POSTed as the envelope with X-SVC-Signature; one
// at a time, in commit order (the position of the event's transaction, then its id). Success moves the cursor on; a failure (non-2xx, timeout) is
// recorded and retried by the same job after a back-off that starts at SVC_WEBHOOK_RETRY_SECONDS
// (10 s) and doubles up to an hour; a subscription failing without a break for
// SVC_WEBHOOK_DISABLE_AFTER_HOURS (48 h) is disabled with the reason. Every attempt is recorded.
import { createHmac } from 'node:crypto';
import pg from 'pg';
import { LockMode } from '@mikro-orm/core';
import { scopedEm, type Orm } from '../platform/orm.ts';
import { renderEventData } from './event-renderers.ts';
import { openSecret } from './secret-box.ts';
import { WebhookAttempt } from './webhook-attempt.entity.ts';
import { WEBHOOK_DELIVER } from './webhook-job.ts';
import { WebhookSubscription } from './webhook-subscription.entity.ts';

const NEXT_EVENT = `select e.id::text as id, c.position::text as position, e.kind, e.resource_id, e.modification, c.committed_at as occurred_at
  from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
  where c.position is not null and (c.position > ?::bigint or (c.position = ?::bigint and e.id > ?::bigint))
    and e.kind = any(?::text[]) and (? or e.admin_id = any(?::text[]))
  order by c.position, e.id limit 1`;

/** At most this many events per job run; the job adds itself again when more are waiting. */
const PER_RUN = 100;

function settings() {
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    retrySeconds: number('SVC_WEBHOOK_RETRY_SECONDS', 10),
    maxRetrySeconds: number('SVC_WEBHOOK_MAX_RETRY_SECONDS', 3600),
    disableAfterMs: number('SVC_WEBHOOK_DISABLE_AFTER_HOURS', 48) * 3_600_000,
    timeoutMs: number('SVC_WEBHOOK_TIMEOUT_MS', 10_000),
  };
}

export function signature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number | null; error: string | null }> {
  try {
    const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    // Only the status counts: the answer's body is dropped unread, whatever its size.
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}` };
  } catch (error) {
    return { status: null, error: (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message };
  }
}

async function addDeliverJob(orm: Orm, subscriptionId: string, delaySeconds = 0): Promise<void> {
  await orm.em.fork().execute(`select graphile_worker.add_job(?, ?::json, run_at := now() + make_interval(secs => ?), job_key := ?, job_key_mode := 'replace')`,
    [WEBHOOK_DELIVER, JSON.stringify({ subscription_id: subscriptionId }), delaySeconds, `webhook:${subscriptionId}`]);
}

/** After a restart: a delivery job for every enabled subscription (a crashed run's job stays locked for hours). */
export async function wakeAllSubscriptions(orm: Orm): Promise<void> {
  await orm.em.fork().execute(`select graphile_worker.add_job(?, json_build_object('subscription_id', id), job_key := 'webhook:' || id,
    job_key_mode := 'preserve_run_at') from webhook_subscription where not disabled`, [WEBHOOK_DELIVER]);
}

/**
 * One run for a subscription, under its session-level advisory lock (released with the connection,
 * also when the process dies): another run of the same subscription waits its turn by trying again
 * a second later, so one message is in flight per subscription and none is sent twice at once.
 */
export async function deliverWebhooks(orm: Orm, connectionString: string, subscriptionId: string): Promise<void> {
  const lock = new pg.Client({ connectionString });
  lock.on('error', () => {});
  await lock.connect();
  try {
    const { rows } = await lock.query('select pg_try_advisory_lock(736400118, hashtext($1)) as locked', [subscriptionId]);
    if (!rows[0].locked) return await addDeliverJob(orm, subscriptionId, 1);
    await deliverRun(orm, subscriptionId);
  } finally {
    await lock.end().catch(() => {});
  }
}

async function deliverRun(orm: Orm, subscriptionId: string): Promise<void> {
  const config = settings();
  for (let n = 0; n < PER_RUN; n++) {
    const em = scopedEm(orm);
    const subscription = await em.findOne(WebhookSubscription, { id: subscriptionId }, { populate: ['secretCiphertext'] });
    if (!subscription || subscription.disabled) return;
    const [event] = await em.execute<{ id: string; position: string; kind: string; resource_id: string; modification: string; occurred_at: Date }[]>(NEXT_EVENT, [
      subscription.lastPosition, subscription.lastPosition, subscription.lastEventId, `{${subscription.kinds.join(',')}}`, subscription.allAdmins && !subscription.adminIds,
      `{${(subscription.adminIds ?? []).join(',')}}`,
    ]);
    if (!event) return;
    const data = await renderEventData(em, event.kind, event.resource_id, event.modification);
    const body = JSON.stringify({
      id: event.id, occurred_at: new Date(event.occurred_at).toISOString(), modification_kind: event.modification, kind: event.kind, data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const answer = await post(subscription.url, body, {
      'content-type': 'application/json', 'x-svc-signature': signature(openSecret(subscription.secretCiphertext), timestamp, body), 'x-svc-event-id': event.id,
    }, config.timeoutMs);
    const ok = answer.error === null;
    // The retry is scheduled after this transaction: adding the job inside it could deadlock with a
    // committing change that wakes the same job key.
    const retryIn = await em.transactional(async (tx): Promise<number | null> => {
      // Locked: a redelivery or an update committed meanwhile is seen (and wins), never overwritten.
      const current = await tx.findOne(WebhookSubscription, { id: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!current) return null;
      tx.create(WebhookAttempt, {
        subscriptionId, eventId: event.id, attempt: current.consecutiveFailures + 1, succeeded: ok, statusCode: answer.status, error: answer.error,
        durationMs: Math.round(performance.now() - started),
      });
      if (ok) {
        // A redelivery moved the cursor meanwhile: it wins.
        if (current.lastPosition === subscription.lastPosition && current.lastEventId === subscription.lastEventId) {
          current.lastPosition = event.position;
          current.lastEventId = event.id;
        }
        current.consecutiveFailures = 0;
        current.failingSince = null;
      } else {
        current.consecutiveFailures += 1;
        current.failingSince ??= new Date();
        if (Date.now() - current.failingSince.getTime() > config.disableAfterMs) {
          current.disable(`failing since ${current.failingSince.toISOString()} (${current.consecutiveFailures} attempts; last: ${answer.error})`);
        } else {
          return Math.min(config.retrySeconds * 2 ** (current.consecutiveFailures - 1), config.maxRetrySeconds);
        }
      }
      return null;
    });
    if (retryIn !== null) await addDeliverJob(orm, subscriptionId, retryIn);
    if (!ok) return;
  }
  // More may be waiting: continue in a new run (other jobs get their turn).
  await addDeliverJob(orm, subscriptionId);
}
