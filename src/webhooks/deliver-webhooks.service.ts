// Delivering a subscription's events (decisions.md "Events"): the next event after the cursor of
// the subscription's kinds and administrations, POSTed as the envelope with X-SVC-Signature; one
// at a time, in commit order (the position of the event's transaction, then its id), up to the
// position settled when the run began (commits taking a position after it woke a run of their own).
// Success moves the cursor on; a failure (non-2xx, timeout) is
// recorded and retried by the same job after a back-off that starts at SVC_WEBHOOK_RETRY_SECONDS
// (10 s) and doubles up to an hour; a subscription failing without a break for
// SVC_WEBHOOK_DISABLE_AFTER_HOURS (48 h) is disabled with the reason. Every attempt is recorded.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import pg from 'pg';
import { addJob, addJobPerRow } from '../platform/jobs.ts';
import type { Orm } from '../platform/orm.ts';
import { scopedEm } from '../access/admin-scope.ts';
import { openSecret } from './secret-box.ts';
import { WEBHOOK_DELIVER } from './webhook-job.ts';
import { literalTargetProblem, publicLookup } from './webhook-target.ts';
import { settledPosition } from '../events/settled-position.ts';
import { deliveredAdministrations } from './webhook-subscription.queries.ts';

const NEXT_EVENT = `select e.id::text as id, c.position::text as position, e.kind, e.resource_id, e.modification, c.committed_at as occurred_at, e.data
  from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
  where c.position <= ?::bigint and (c.position > ?::bigint or (c.position = ?::bigint and e.id > ?::bigint))
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

/**
 * One POST, to a public address only (webhook-target.ts: the connection's own lookup checks the
 * address it connects to); redirects are not followed. Only the status counts: the answer's body is
 * dropped unread, whatever its size.
 */
function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number | null; error: string | null }> {
  let target: URL;
  try { target = new URL(url); } catch { return Promise.resolve({ status: null, error: 'the url is not a URL' }); }
  const refused = literalTargetProblem(target);
  if (refused) return Promise.resolve({ status: null, error: `not delivered: ${refused}` });
  return new Promise((resolve) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: publicLookup, signal: AbortSignal.timeout(timeoutMs),
    }, (response) => {
      const status = response.statusCode ?? 0;
      response.destroy();
      resolve({ status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
    });
    request.on('error', (error: Error & { code?: string }) => {
      resolve({ status: null, error: error.name === 'AbortError' || error.code === 'ABORT_ERR' ? `no answer within ${timeoutMs} ms`
        : error.code === 'ENOTPUBLIC' ? `not delivered: ${error.message}` : error.message });
    });
    request.end(body);
  });
}

async function addDeliverJob(orm: Orm, subscriptionId: string, delaySeconds = 0): Promise<void> {
  await addJob(orm.em.fork(), WEBHOOK_DELIVER, { subscription_id: subscriptionId },
    { delaySeconds, jobKey: `webhook:${subscriptionId}`, jobKeyMode: 'replace' });
}

/** After a restart: a delivery job for every enabled subscription (a crashed run's job stays locked for hours). */
export async function wakeAllSubscriptions(orm: Orm): Promise<void> {
  await addJobPerRow(orm.em.fork(), WEBHOOK_DELIVER, {
    sql: "select json_build_object('subscription_id', id) as payload, 'webhook:' || id as job_key from webhook_subscription where not disabled",
  }, { jobKeyMode: 'preserve_run_at' });
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

interface SubscriptionRow {
  url: string; kinds: string[]; admin_ids: string[] | null; all_admins: boolean; secret_ciphertext: string; disabled: boolean;
  last_position: string; last_event_id: string;
}

interface EventRow { id: string; position: string; kind: string; resource_id: string; modification: string; occurred_at: Date; data: unknown }

const SUBSCRIPTION = `select url, kinds, admin_ids, all_admins, secret_ciphertext, disabled, last_position::text, last_event_id::text
  from webhook_subscription where id = ?`;

/**
 * The bookkeeping of an attempt, in one statement: the attempt's record, and on the subscription
 * (locked by the update) the cursor after a success (unless a redelivery moved it meanwhile: it
 * wins), the failure count, or the disabling after failing too long. Answers the consecutive
 * failures and whether it is disabled. Plain SQL: bookkeeping is never an event (decisions.md).
 */
const RECORD_ATTEMPT = `with current as (select id, consecutive_failures, failing_since, last_position, last_event_id
    from webhook_subscription where id = ? for update),
  updated as (update webhook_subscription s set
      last_position = case when ? and c.last_position = ?::bigint and c.last_event_id = ?::bigint then ?::bigint else s.last_position end,
      last_event_id = case when ? and c.last_position = ?::bigint and c.last_event_id = ?::bigint then ?::bigint else s.last_event_id end,
      consecutive_failures = case when ? then 0 else s.consecutive_failures + 1 end,
      failing_since = case when ? then null else coalesce(s.failing_since, now()) end,
      disabled = s.disabled or (not ? and now() - coalesce(s.failing_since, now()) > make_interval(secs => ?)),
      disabled_reason = case when not s.disabled and not ? and now() - coalesce(s.failing_since, now()) > make_interval(secs => ?)
        then 'failing since ' || to_char(s.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' ('
          || (s.consecutive_failures + 1) || ' attempts; last: ' || ? || ')' else s.disabled_reason end
    from current c where s.id = c.id
    returning s.consecutive_failures, s.disabled, c.consecutive_failures as before),
  attempt as (insert into webhook_attempt (subscription_id, event_id, attempt, succeeded, status_code, error, duration_ms, attempted_at)
    select ?, ?, u.before + 1, ?, ?, ?, ?, now() from updated u)
  select consecutive_failures, disabled from updated`;

async function deliverRun(orm: Orm, subscriptionId: string): Promise<void> {
  const config = settings();
  const em = scopedEm(orm);
  const settled = await settledPosition(em);
  for (let n = 0; n < PER_RUN; n++) {
    const [subscription] = await em.execute<SubscriptionRow[]>(SUBSCRIPTION, [subscriptionId]);
    if (!subscription || subscription.disabled) return;
    const admins = deliveredAdministrations({ allAdmins: subscription.all_admins, adminIds: subscription.admin_ids });
    const [event] = await em.execute<EventRow[]>(NEXT_EVENT, [
      settled, subscription.last_position, subscription.last_position, subscription.last_event_id, `{${subscription.kinds.join(',')}}`,
      admins.all, `{${admins.ids.join(',')}}`,
    ]);
    if (!event) return;
    // The resource as it was when its change committed; dropped only after every subscription had it (a redelivery of an old event).
    const data = event.data ?? { id: event.resource_id };
    const body = JSON.stringify({
      id: event.id, occurred_at: new Date(event.occurred_at).toISOString(), modification_kind: event.modification, kind: event.kind, data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const answer = await post(subscription.url, body, {
      'content-type': 'application/json', 'x-svc-signature': signature(openSecret(subscription.secret_ciphertext), timestamp, body), 'x-svc-event-id': event.id,
    }, config.timeoutMs);
    const ok = answer.error === null;
    const disableAfter = config.disableAfterMs / 1000;
    const [after] = await em.execute<{ consecutive_failures: number; disabled: boolean }[]>(RECORD_ATTEMPT, [
      subscriptionId,
      ok, subscription.last_position, subscription.last_event_id, event.position,
      ok, subscription.last_position, subscription.last_event_id, event.id,
      ok, ok, ok, disableAfter, ok, disableAfter, answer.error ?? '',
      subscriptionId, event.id, ok, answer.status, answer.error, Math.round(performance.now() - started),
    ]);
    if (!after) return;
    if (!ok) {
      // The retry is scheduled after the bookkeeping committed: adding the job inside a transaction
      // could deadlock with a committing change that wakes the same job key.
      if (!after.disabled) await addDeliverJob(orm, subscriptionId, Math.min(config.retrySeconds * 2 ** (after.consecutive_failures - 1), config.maxRetrySeconds));
      return;
    }
  }
  // More may be waiting: continue in a new run (other jobs get their turn).
  await addDeliverJob(orm, subscriptionId);
}
