// Ingestion of a charge session: an INSERT .. ON CONFLICT DO NOTHING on the session's identity,
// so the same session sent twice (also at the same moment) is stored once; a repeat with the same
// content answers the stored session, one with other content goes to resubmit-session.service.ts.
// Sessions arriving in the same turn of the event loop, or while the previous statement is written,
// are written with one statement (at most STATEMENT_SESSIONS; each caller is answered once its
// statement committed), which keeps the cost per session low under load. Processing happens
// asynchronously (src/worker/).
import type { Em } from '../platform/orm.ts';
import type { SessionStatus } from './charge-session.entity.ts';
import type { IngestedSession, SessionSubmission } from './session-submission.ts';
import { resubmitSession } from './resubmit-session.service.ts';
import { firstDifference } from './session-content.ts';
import { requestProcessing } from './processing-job.ts';
import { currentActor, runAs } from '../events/actor-context.ts';
import { serializeEventData } from '../events/event-renderers.ts';
import { sessionEventKind } from '../events/event-sql.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import { ChargeSession } from './charge-session.entity.ts';
import { chargeSessionDataOfRows } from './charge-session.queries.ts';
import { storedRow } from './stored-row.ts';
import { callerScope, type AdminScope } from '../access/admin-scope.ts';
import { assertSubmittable, submissionRefusals, submitterAdminIds } from './submission-access.ts';
import { DomainError } from '../platform/errors.ts';

export function identityKeyOf(submission: Pick<SessionSubmission, 'source' | 'sender' | 'sessionId'>): string {
  return `${submission.source}:${senderKey(submission)}:${submission.sessionId}`;
}

/**
 * A CPO party (charge-session) without separators; an EVSE's uid (cpo-charge-session) as sent, its
 * colons escaped so that the key's parts stay apart (`EVX-1` and `EVX1` are two EVSEs). The key is
 * compared in any casing (citext). Migration cpo_session_identity wrote the stored keys this way.
 */
function senderKey({ source, sender }: Pick<SessionSubmission, 'source' | 'sender'>): string {
  return source === 'charge_session' ? sender.replace(/[*\-\s]/g, '') : sender.replaceAll('%', '%25').replaceAll(':', '%3A');
}

// One statement, committed on its own: the sessions and their `create` events (src/events) with
// their data, which is what the GET answers for the row the statement stores (insertedRow), rendered
// before it is sent; the events of the rows stored, those of repeats left out. The ids are the
// sessions feed's (svc_feed_ids: GET /msp-charge-session pages below the rows still to commit), taken
// in the statement before its rows are written, the n-th for the n-th session; each event's data
// gets its session's id.
const INSERT = `with ids as materialized (select id, n from svc_feed_ids(1, $3) with ordinality as f(id, n)),
  inserted as (insert into msp_charge_session
  (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds, time_zone, country,
   evse_id, evse_uid, payload, received_at, submitter_admin_ids, status, bypass_checks, pricing_version, created_at, updated_at)
  select ids.id, r.source, r.identity_key, r.session_id, r.cpo_id, r.evco_id, r.start_at, r.end_at, r.energy_kwh, r.idle_seconds, r.time_zone, r.country,
    r.evse_id, r.evse_uid, r.payload, r.received_at, r.submitter_admin_ids, 'received', '[]', 0, r.received_at, r.received_at
  from jsonb_populate_recordset(null::msp_charge_session, $1::jsonb) with ordinality as r join ids on ids.n = r.ordinality
  order by ids.n
  on conflict (identity_key) do nothing
  returning id, identity_key, status, received_at, source),
  events as (insert into svc_event (kind, resource_id, modification, admin_id, actor, data, occurred_at)
    select case i.source when 'cpo_charge_session' then 'cpo_charge_session' else 'msp_charge_session' end, i.id::text, 'create', null, d.actor,
      jsonb_set(d.data, '{id}', to_jsonb(i.id::text)), now()
    from inserted i join ids on ids.id = i.id join rows from (jsonb_to_recordset($2::jsonb) as (actor text, data jsonb)) with ordinality as d(actor, data, n) on d.n = ids.n
    order by i.id)
  select id, identity_key, status, received_at from inserted`;

// Each stored session with the key it was asked for (`asked`), as sent: the key's folding is the
// database's (citext), which JavaScript's toLowerCase does not repeat (U+0130: i, against i + U+0307).
const STORED = `select k.value as asked, s.id, s.identity_key, s.status, s.received_at, s.payload
  from json_array_elements_text($1::json) k join msp_charge_session s on s.identity_key = k.value::citext`;

type NewRow = ReturnType<typeof newRow>;

/**
 * An identity key lower-cased as the database's citext folds it, as near as JavaScript gets, to
 * gather the copies of an identity (writeBatch matches the rows by the database's folding itself):
 * a character at a time, U+0130 (dotted capital I) as i. String#toLowerCase gives i + U+0307 for it,
 * and a final sigma by its place in the key, where PostgreSQL's lower() gives i and σ.
 */
function caseGroup(key: string): string {
  if (!/[^\u0000-\u007f]/.test(key)) return key.toLowerCase();
  return Array.from(key, (c) => (c === '\u0130' ? 'i' : c.toLowerCase())).join('');
}

/** The id a new session's event data holds until the statement gives it its own. */
const UNNUMBERED = '00000000-0000-7000-8000-000000000000';

/** A new session's row as the INSERT stores it: what it writes of the submission and its constants. */
function insertedRow(em: Em, row: NewRow): Record<string, unknown> {
  return storedRow(em, ChargeSession, {
    ...row, id: UNNUMBERED, status: 'received', bypass_checks: [], pricing_version: 0, created_at: row.received_at, updated_at: row.received_at,
  });
}

/**
 * Each new session's `create` event, in the batch's order: its data (its id, given by the statement,
 * put in there), and the actor that submitted it (one statement carries several callers' sessions).
 */
function createdEvents(em: Em, batch: Pending[]): { actor: string; data: unknown }[] {
  const sessions = chargeSessionDataOfRows(em, batch.map((p) => insertedRow(em, p.row)));
  return sessions.map((session, i) => ({ actor: batch[i].actor, data: serializeEventData(sessionEventKind(session.source), [session])[0] }));
}

/** The batch's one statement: in a savepoint when the caller's em is in a transaction, else committed on its own. */
async function insertBatch(em: Em, batch: Pending[]): Promise<Row[]> {
  const params = [JSON.stringify(batch.map((p) => p.row)), JSON.stringify(createdEvents(em, batch)), batch.length];
  if (em.isInTransaction()) return em.transactional((tx) => boundQuery<Row>(tx, INSERT, params));
  return boundQuery<Row>(em, INSERT, params);
}

interface Row { id: string; identity_key: string; status: SessionStatus; received_at: Date; payload?: Record<string, unknown> }
interface Pending {
  key: string; submission: SessionSubmission; row: NewRow; actor: string;
  /** Whether the worker is asked to process it at once (ingestSession's `kick`). */
  kick: boolean;
  /** The caller's (its administrations): a statement carries several callers' sessions, written with the first one's. */
  em: Em;
  resolve(value: IngestedSession): void; reject(error: unknown): void;
}

/**
 * The sessions waiting for a database's next statement. One statement at a time per database: the
 * sessions arriving while a statement is written wait for the next one and go in together (under
 * load, fewer and larger statements; when idle, the sessions of one event-loop turn, as soon as that
 * turn ends). Two statements in flight were no faster (2026-11-27: the machine's CPU is the limit).
 */
interface Queue { em: Em | null; pending: Pending[]; writing: boolean; scheduled: boolean }

/**
 * Most sessions one statement writes: a processing batch's worth (src/worker/tasks.ts BATCH_SIZE).
 * A batch of 1,000 (POST /charge-session-batch) is written by two statements, and the worker prices
 * the first 500 while the second is written: in `npm run bench -- batch`, 4 runs each alternating
 * (2026-11-27), all priced after 2.04 to 2.26 s against 2.28 to 2.38 s with one statement.
 */
const STATEMENT_SESSIONS = 500;

const queues = new Map<string, Queue>();

function schedule(queue: Queue): void {
  if (queue.writing || queue.scheduled || !queue.pending.length) return;
  queue.scheduled = true;
  setImmediate(() => void flush(queue));
}

async function flush(queue: Queue): Promise<void> {
  queue.scheduled = false;
  const em = queue.em!;
  const batch = queue.pending.splice(0, STATEMENT_SESSIONS);
  // Later submissions of an identity in this statement go with it (writeBatch applies them in order
  // before anything can process the session); other identities keep their turn. The casing compared
  // here is caseGroup's, only to gather: writeBatch matches the rows by the database's.
  const keys = new Set(batch.map((p) => caseGroup(p.key)));
  for (let i = 0; i < queue.pending.length;) {
    if (keys.has(caseGroup(queue.pending[i].key))) batch.push(...queue.pending.splice(i, 1));
    else i++;
  }
  queue.writing = true;
  queue.em = queue.pending.length ? em.fork() : null;
  let changed: Pending[] = [];
  try {
    changed = await writeBatch(em, batch, batch.some((p) => p.kick));
  } finally {
    queue.writing = false;
    schedule(queue);
  }
  await resubmitChanged(changed);
}

/** Other content under a stored identity: one at a time, in the order received, under a row lock. */
async function resubmitChanged(changed: Pending[]): Promise<void> {
  // As its sender, with its administrations: the statement that found it may have been started by another caller.
  for (const p of changed) await runAs(p.actor, () => resubmitSession(p.em, p.submission, p.key, p.kick)).then(p.resolve, p.reject);
}

/**
 * Writes a batch and answers its new sessions and repeats; the submissions with other content under
 * a stored identity are left to resubmit, in order. An identity submitted several times by one caller
 * (a batch request) is taken in the order received, as single POSTs one after another would be: a
 * new session is stored with the content of the last (each later one replaced an earlier one before
 * anything could process it), and each is answered as a new session, a change or a repeat of the one
 * before; under a stored identity, once one differs, it and every later one are resubmitted in turn.
 * Another caller's submission of an identity the statement stores is resubmitted (its access checked).
 */
async function writeBatch(em: Em, batch: Pending[], kick: boolean): Promise<Pending[]> {
  const changed: Pending[] = [];
  try {
    // The first submission of each identity, and the last of those its caller (its request) sent;
    // gathered by caseGroup (see flush), each row then matched by the key as sent.
    const firstOf = new Map<string, Pending>();
    const lastOf = new Map<string, Pending>();
    for (const p of batch) {
      const group = caseGroup(p.key);
      if (!firstOf.has(group)) firstOf.set(group, p);
      if (firstOf.get(group)!.em === p.em) lastOf.set(group, p);
    }
    const inserted = await insertBatch(em, [...lastOf.values()]);
    // The INSERT answers each row it stored with its identity_key as its submission sent it.
    const rowOf = new Map<string, Row>(inserted.map((row) => [row.identity_key, row]));
    const insertedFor = new Map<string, string>();
    for (const [group, p] of lastOf) if (rowOf.has(p.key)) insertedFor.set(group, rowOf.get(p.key)!.id);
    const insertedIds = new Set(insertedFor.values());
    const asked = [...new Set(batch.map((p) => p.key))].filter((key) => !rowOf.has(key));
    if (asked.length) {
      for (const row of await boundQuery<Row & { asked: string }>(em, STORED, [JSON.stringify(asked)])) rowOf.set(row.asked, row);
    }
    const before = new Map<string, Pending>();
    const resubmitting = new Set<string>();
    const unmatched: Pending[] = [];
    for (const p of batch) {
      const group = caseGroup(p.key);
      const row = rowOf.get(p.key);
      if (!row) {
        unmatched.push(p);
        continue;
      }
      const answer = (duplicate: boolean) => p.resolve({ id: row.id, status: row.status, receivedAt: new Date(row.received_at), duplicate });
      const fresh = insertedFor.get(group) === row.id;
      if (fresh && firstOf.get(group)!.em !== p.em) {
        // Another caller's submission of the identity just stored: resubmitted, with its access checked.
        changed.push(p);
      } else if (fresh) {
        const previous = before.get(row.id);
        before.set(row.id, p);
        answer(previous !== undefined && firstDifference(p.submission.source, previous.submission.payload, p.submission.payload) === null);
      } else if (insertedIds.has(row.id) || resubmitting.has(row.id) || firstDifference(p.submission.source, row.payload!, p.submission.payload) !== null) {
        // Stored by this statement under a key caseGroup tells apart, or with other content: resubmitted, in order.
        resubmitting.add(row.id);
        changed.push(p);
      } else {
        answer(true);
      }
    }
    if (inserted.length && kick) requestProcessing(em);
    // Keys caseGroup gathered that the database tells apart: written on their own, as the next statement would.
    if (unmatched.length && unmatched.length < batch.length) changed.push(...await writeBatch(em, unmatched, kick));
    else for (const p of unmatched) p.reject(unmatchedIdentity());
  } catch (error) {
    // One session the database refuses must not fail the others written with it (each alone, in order).
    if (batch.length > 1) {
      changed.length = 0;
      for (const p of batch) changed.push(...await writeBatch(em, [p], kick));
      return changed;
    }
    batch[0].reject(error);
    return [];
  }
  return changed;
}

/** Neither stored nor found under its identity (not expected: the INSERT and the look-up compare it alike). */
const unmatchedIdentity = () => new DomainError('duplicate', 'a session with this identity (sender and session_id) could not be stored or found', { path: ['session_id'] });

/**
 * `kick: false` leaves the session to the worker's next job (demo data written before the queue exists).
 * A credential limited to administrations submits only what submission-access.ts allows.
 */
export function ingestSession(em: Em, s: SessionSubmission, options: { kick?: boolean } = {}): Promise<IngestedSession> {
  if (callerScope(em).all) return ingest(em, s, options);
  return assertSubmittable(em, s, identityKeyOf(s)).then(() => ingest(em, s, options));
}

/**
 * The sessions of one request (POST /charge-session-batch), each taken as ingestSession takes it:
 * the caller's access checked for all at once, the new ones written together (STATEMENT_SESSIONS a statement). Each
 * session's answer or refusal, in order; any other failure fails the whole (what was written stays,
 * and sending the batch again is idempotent).
 */
export async function ingestSessions(em: Em, submissions: SessionSubmission[]): Promise<(IngestedSession | DomainError)[]> {
  const refusals = await submissionRefusals(em, submissions.map((submission) => ({ submission, identityKey: identityKeyOf(submission) })));
  // Queued in this turn of the event loop: written together.
  const settled = await Promise.allSettled(submissions.map((s, i) => refusals[i] ?? ingest(em, s, {})));
  const failed = settled.find((result) => result.status === 'rejected' && !(result.reason instanceof DomainError));
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((result) => (result.status === 'fulfilled' ? result.value : result.reason as DomainError));
}

/** What the INSERT writes of a submission by a caller limited to `scope`. */
function newRow(s: SessionSubmission, key: string, now: Date, scope: AdminScope) {
  return {
    submitter_admin_ids: submitterAdminIds(scope),
    source: s.source, identity_key: key, session_id: s.sessionId, cpo_id: s.cpoId, evco_id: s.evcoId,
    start_at: s.startAt.toISOString(), end_at: s.endAt.toISOString(), energy_kwh: s.energyKwh, idle_seconds: s.idleSeconds,
    time_zone: s.timeZone, country: s.country, evse_id: s.evseId, evse_uid: s.evseUid, payload: s.payload, received_at: now.toISOString(),
  };
}

function ingest(em: Em, s: SessionSubmission, options: { kick?: boolean }): Promise<IngestedSession> {
  const key = identityKeyOf(s);
  const row = newRow(s, key, new Date(), callerScope(em));
  const queueKey = String(em.config.get('clientUrl') ?? em.config.get('dbName'));
  return new Promise((resolve, reject) => {
    let queue = queues.get(queueKey);
    if (!queue) {
      queue = { em: null, pending: [], writing: false, scheduled: false };
      queues.set(queueKey, queue);
    }
    queue.em ??= em.fork();
    queue.pending.push({ key, submission: s, row, actor: currentActor(), kick: options.kick !== false, em, resolve, reject });
    schedule(queue);
  });
}
