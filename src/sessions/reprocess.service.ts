// Sending sessions through the pipeline again: repricing one session (a new pricing result with
// the next version; earlier ones stay), a plan-or-customer correction (the sessions of the old
// subscription from the correction moment on), drop-out cases (retry, bypass a check, discard),
// and an EVSE's drop-outs when its dropout_all_chargesessions switch goes off.
// Each marks the sessions `received` and adds the processing job in one transaction, and answers
// plain data (the reads are in charge-session.queries.ts, dropout-case.queries.ts).
import { LockMode } from '@mikro-orm/core';
import type { Evse } from '../cpo/evse.entity.ts';
import { evseData, type EvseData } from '../cpo/evse.queries.ts';
import { switchDropoutAllChargesessions } from '../cpo/save-evse.service.ts';
import { SubscriptionCorrection } from '../msp/subscription-correction.entity.ts';
import { lockForCorrection } from '../msp/correction-lock.ts';
import type { SubscriptionCorrectedJob } from '../msp/subscription-corrected.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em, Orm } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { ADMIN_SCOPE, callerScope, scopedEm, scopeOn } from '../access/admin-scope.ts';
import { recordEventRows, type EventRow } from '../events/event-sql.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import { ChargeSession } from './charge-session.entity.ts';
import { mspSideView, seenBy, type ChargeSessionData } from './charge-session.queries.ts';
import { DropoutCase, type DropoutSide, type ReprocessInstruction } from './dropout-case.entity.ts';
import type { DropoutCaseData } from './dropout-case.queries.ts';
import { requestProcessingIn } from './processing-job.ts';
import { VALIDITY_CHECKS, type ValidityCheck } from './validity-checks.ts';

/** A session whose driver's side the caller sees (repricing is the driver's side's: charge-session.queries.ts). */
async function loadSession(em: Em, id: string): Promise<ChargeSession> {
  const session = isUuid(id) ? await em.findOne(ChargeSession, { id, ...scopeOn(em, ['driverAdmin']) }, { filters: { [ADMIN_SCOPE]: false } }) : null;
  if (!session) throw new NotFoundError('charge session');
  return session;
}

/** Locked for update and read afresh: a state checked after a plain load and a lock is the state before the lock. */
const LOCKED = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } as const;

/**
 * A session in drop-out leaves its case as a resubmitted one does (resubmit-session.service.ts):
 * the case counts it no more, or is resolved (retry) when it was its last session. Lock order as
 * elsewhere: the case first, then the session.
 */
export async function repriceSession(em: Em, id: string): Promise<ChargeSessionData> {
  for (;;) {
    const answer = await em.transactional(async (tx) => {
      const seen = await loadSession(tx, id);
      const caseId = seen.status === 'dropout' ? seen.dropoutCase?.id : undefined;
      const dropoutCase = caseId ? await tx.findOne(DropoutCase, { id: caseId }, { ...LOCKED, filters: false }) : null;
      const session = await tx.findOneOrFail(ChargeSession, { id: seen.id }, { ...LOCKED, filters: { [ADMIN_SCOPE]: false } });
      // Moved to another case between the look and the lock: look again.
      if (session.status === 'dropout' && session.dropoutCase?.id !== caseId) return null;
      if (session.status === 'discarded') throw new DomainError('session_discarded', 'a discarded session is not priced again');
      if (session.status === 'dropout' && dropoutCase?.status === 'open') {
        const others = await tx.count(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout', id: { $ne: session.id } }, { filters: false });
        if (others === 0) dropoutCase.resolve('retry', new Date());
        else dropoutCase.sessionCount -= 1;
      }
      if (session.status === 'dropout') Object.assign(session, { dropoutCase: null, dropoutReason: null, dropoutMessage: null });
      session.status = 'received';
      await tx.flush();
      await requestProcessingIn(tx);
      return mspSideView(plainData(session), seenBy(callerScope(tx)));
    });
    if (answer) return answer;
  }
}

/** A case of the credential's administrations, of one side when named (msp: /msp-dropout-case, cpo: /cpo-dropout-case), locked for update. */
async function loadDropoutCase(em: Em, id: string, side?: DropoutSide): Promise<DropoutCase> {
  const dropoutCase = isUuid(id) ? await em.findOne(DropoutCase, { id, ...(side ? { side } : {}) }, LOCKED) : null;
  if (!dropoutCase) throw new NotFoundError('drop-out case');
  return dropoutCase;
}

export interface ReprocessInput { instruction: ReprocessInstruction; bypassChecks?: string[] }

/** The case is resolved; its sessions are priced again (bypassing the named checks) or discarded. */
export async function reprocessDropoutCase(em: Em, id: string, input: ReprocessInput, side?: DropoutSide): Promise<DropoutCaseData> {
  const bypass = input.bypassChecks ?? [];
  // Each session of the case stores the list: at most as many as there are checks, as REST's body
  // schema holds it (found by probing, 2026-11-29: GraphQL stored 40,000 on every session).
  if (bypass.length > VALIDITY_CHECKS.length) {
    throw new DomainError('validation_failed', `bypass_checks must hold at most ${VALIDITY_CHECKS.length} checks`, { path: ['bypass_checks'] });
  }
  if (input.instruction === 'bypass' && bypass.length === 0) {
    throw new InvalidInputError('bypass needs the checks to bypass', { path: ['bypass_checks'] });
  }
  const unknown = bypass.find((check) => !VALIDITY_CHECKS.includes(check as ValidityCheck));
  if (unknown !== undefined) throw new InvalidInputError(`${unknown} is not a check; checks: ${VALIDITY_CHECKS.join(', ')}`, { path: ['bypass_checks'] });
  return em.transactional(async (tx) => {
    const dropoutCase = await loadDropoutCase(tx, id, side);
    dropoutCase.resolve(input.instruction, new Date());
    const status = input.instruction === 'discard' ? 'discarded' : 'received';
    const changes: Record<string, unknown> = { status, matchAttempts: 0, retryAt: null, updatedAt: new Date() };
    if (input.instruction === 'bypass') changes.bypassChecks = bypass;
    await tx.nativeUpdate(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout' }, changes, { filters: false });
    await tx.flush();
    if (status === 'received') await requestProcessingIn(tx);
    return plainData(dropoutCase);
  });
}

/**
 * PUT /cpo-evse/{evse_uid}/dropout-all-chargesessions, GraphQL setEvseDropoutAll: the EVSE's safe
 * configuration switch (src/cpo/save-evse.service.ts); turning it off with reprocess_dropouts retries
 * the EVSE's drop-outs in the same transaction.
 */
export function setDropoutAllChargesessions(em: Em, evseUid: string, enabled: boolean, reprocessDropouts: boolean): Promise<EvseData> {
  return em.transactional(async (tx) => {
    const evse = await switchDropoutAllChargesessions(tx, evseUid, enabled);
    if (!enabled && reprocessDropouts) await retryEvseDropouts(tx, evse);
    return evseData(evse);
  });
}

/**
 * The detail of a case's group key (record-outcomes.ts: `[cpo|]reason|administration|detail`): for
 * this reason the EVSE's uid, which may itself hold `|`.
 */
const detailOf = (groupKey: string) => groupKey.replace(/^cpo\|/, '').split('|').slice(2).join('|');

/** The EVSE's open dropout_all_chargesessions cases (whoever's sessions they hold) are retried, in the caller's transaction. */
async function retryEvseDropouts(em: Em, evse: Evse): Promise<void> {
  // The uid is free text: `_` and `%` in it are escaped (they matched other EVSEs' uids), and the
  // detail is compared whole (found by probing, 2026-11-29: switching P_1 off retried PX1's cases).
  const pattern = `%|${evse.evseUid.replace(/[\\%_]/g, '\\$&')}`;
  const found = await em.find(DropoutCase, { reason: 'evse_dropout_all_chargesessions', status: 'open', groupKey: { $like: pattern } }, {
    filters: false, lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  const cases = found.filter((dropoutCase) => detailOf(dropoutCase.groupKey).toLowerCase() === evse.evseUid.toLowerCase());
  for (const dropoutCase of cases) {
    dropoutCase.resolve('retry', new Date());
    await em.nativeUpdate(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout' }, { status: 'received', matchAttempts: 0, retryAt: null, updatedAt: new Date() }, { filters: false });
  }
  await em.flush();
  if (cases.length) await requestProcessingIn(em);
}

// The correction's sessions are taken as repriceSession takes one, set-based (a correction may
// reach many): the open cases of its drop-outs are locked first (id order), then the sessions; a
// session that dropped out into another case between the look and the update is taken next round.
// The driver's side's cases only: a CPO case (matching, reimbursement) is its operator's to handle, and
// the correction changes nothing of it (found by probing, 2026-11-29: it was retried, and opened anew).
const LOCK_CASES = `select c.id from msp_dropout_case c
  where c.id in (select s.dropout_case_id from msp_charge_session s where s.subscription_id = $1 and s.start_at >= $2 and s.status = 'dropout')
    and c.side = 'msp'
  order by c.id for update of c`;

// Each session's case as it was, read from the locked row (PostgreSQL 15+: no RETURNING old).
const RECEIVE = `update msp_charge_session s set status = 'received', dropout_case_id = null, dropout_reason = null, dropout_message = null, updated_at = now()
  from (select x.id, x.dropout_case_id from msp_charge_session x
    where x.subscription_id = $1 and x.start_at >= $2 and (x.status = 'priced' or (x.status = 'dropout' and x.dropout_case_id = any($3::uuid[])))
    for update) was
  where s.id = was.id
  returning was.dropout_case_id::text as case_id`;

// An open case counts the sessions taken no more, or is resolved (retry) when none is left in it.
// The cases are locked (LOCK_CASES): `was` reads them as they are until this statement changes them.
const LEAVE_CASES = `with taken as (select x.id, x.n from jsonb_to_recordset($1::jsonb) as x(id uuid, n int)),
  remaining as (select t.id, (select count(*) from msp_charge_session s where s.dropout_case_id = t.id and s.status = 'dropout') as n from taken t),
  was as (select c.id, c.session_count, c.status, c.open_key, c.resolution, c.resolved_at from msp_dropout_case c where c.id in (select id from taken))
  update msp_dropout_case c set
    session_count = case when r.n = 0 then c.session_count else c.session_count - t.n end,
    status = case when r.n = 0 then 'resolved' else c.status end,
    open_key = case when r.n = 0 then null else c.open_key end,
    resolution = case when r.n = 0 then 'retry' else c.resolution end,
    resolved_at = case when r.n = 0 then now() else c.resolved_at end,
    updated_at = now()
  from taken t join remaining r on r.id = t.id join was o on o.id = t.id
  where c.id = t.id and c.status = 'open'
  returning c.id::text, c.side, c.admin_id::text,
    json_build_object('sessionCount', o.session_count, 'status', o.status, 'openKey', o.open_key, 'resolution', o.resolution, 'resolvedAt', o.resolved_at) as was,
    json_build_object('sessionCount', c.session_count, 'status', c.status, 'openKey', c.open_key, 'resolution', c.resolution, 'resolvedAt', c.resolved_at) as became`;

interface LeftCase { id: string; side: DropoutSide; admin_id: string | null; was: Record<string, unknown>; became: Record<string, unknown> }

/** The `update` events the flush records for the cases repriceSession changes: the fields that changed, {field: [from, to]}. */
function caseEvents(cases: LeftCase[]): EventRow[] {
  return cases.map((c) => {
    const changes: Record<string, [unknown, unknown]> = {};
    for (const [field, to] of Object.entries(c.became)) {
      const from = c.was[field];
      if (from !== to) changes[field] = field === 'resolvedAt' ? [isoOrNull(from), isoOrNull(to)] : [from, to];
    }
    return { kind: c.side === 'cpo' ? 'cpo_dropout_case' : 'msp_dropout_case', resource_id: c.id, modification: 'update', admin_id: c.admin_id, changes };
  });
}

const isoOrNull = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/** The old subscription's priced and dropped-out sessions from `from` on go back to `received`, out of their cases, in the caller's transaction. */
async function receiveCorrectedSessions(em: Em, subscriptionId: string, from: Date): Promise<void> {
  const events: EventRow[] = [];
  for (let round = 0; ; round++) {
    const cases = (await boundQuery<{ id: string }>(em, LOCK_CASES, [subscriptionId, from])).map((c) => c.id);
    if (round > 0 && !cases.length) break;
    const taken = new Map<string, number>();
    for (const { case_id } of await boundQuery<{ case_id: string | null }>(em, RECEIVE, [subscriptionId, from, cases])) {
      if (case_id) taken.set(case_id, (taken.get(case_id) ?? 0) + 1);
    }
    if (taken.size) events.push(...caseEvents(await boundQuery<LeftCase>(em, LEAVE_CASES, [JSON.stringify([...taken].map(([id, n]) => ({ id, n })))])));
    if (!cases.length) break;
  }
  await recordEventRows(em, events);
}

/**
 * The job a plan-or-customer correction added in its transaction (a task of the session worker):
 * the old subscription's priced and dropped-out sessions starting at or after the correction
 * moment are priced again, the drop-outs taken out of their cases as repriceSession does. Run
 * twice, it finds none left: repriced sessions belong to the successor.
 */
export async function repriceCorrectedSessions(orm: Orm, job: SubscriptionCorrectedJob): Promise<void> {
  await scopedEm(orm).transactional(async (tx) => {
    const correction = await tx.findOne(SubscriptionCorrection, { id: job.correction_id }, { filters: false });
    if (!correction) return;
    // Processing batches that priced on the old subscription commit first (src/msp/correction-lock.ts).
    await lockForCorrection(tx, correction.oldSubscription.id);
    await receiveCorrectedSessions(tx, correction.oldSubscription.id, correction.correctedFrom);
    await requestProcessingIn(tx);
  });
}
