// A session sent again under a stored identity with other content (decisions.md "Resubmission").
// Still waiting or in a drop-out case: the new data replaces the old and the session is processed
// again; the drop-out case it leaves is resolved once no other session is in it. Priced (now or by
// an earlier version) or discarded: 400 conflicting_resubmission naming the first differing field,
// nothing changes. The row is locked (FOR UPDATE) so that a worker pricing it meanwhile either
// finishes first (and the answer sees it priced) or skips it (SKIP LOCKED) until the new data is in.
// `em` is the caller's (its administrations): a credential limited to administrations resubmits only
// its own sessions (submission-access.ts). A submission naming the roaming connection it came through
// (OCPI) replaces only a session of that connection: else 400 conflicting_resubmission at roaming_connection_id.
import { LockMode } from '@mikro-orm/core';
import { DomainError } from '../platform/errors.ts';
import { fieldLabel } from '../platform/field-path.ts';
import type { Em } from '../platform/orm.ts';
import { ChargeSession } from './charge-session.entity.ts';
import { DropoutCase } from './dropout-case.entity.ts';
import type { IngestedSession, SessionSubmission } from './session-submission.ts';
import { firstDifference } from './session-content.ts';
import { requestProcessing, requestProcessingIn } from './processing-job.ts';
import { assertResubmittable, submitterAdminIds } from './submission-access.ts';
import { callerScope } from '../access/admin-scope.ts';

const LOCKED = { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE } as const;

async function resubmitOnce(tx: Em, s: SessionSubmission, identityKey: string, kick: boolean): Promise<IngestedSession | null> {
  // Lock order as elsewhere (drop-out reprocessing): the case first, then its sessions.
  const seen = await tx.findOneOrFail(ChargeSession, { identityKey }, { filters: false });
  const caseId = seen.status === 'dropout' ? seen.dropoutCase?.id : undefined;
  const dropoutCase = caseId ? await tx.findOne(DropoutCase, { id: caseId }, LOCKED) : null;
  const session = await tx.findOneOrFail(ChargeSession, { identityKey }, { ...LOCKED, refresh: true });
  if (session.status === 'dropout' && session.dropoutCase?.id !== caseId) return null;
  // Another administration's session stored since the caller's check (the same identity sent by both at once).
  await assertResubmittable(tx, session);
  // Another connection's session stored since the peer's own check (the same id sent through both at once).
  if (s.roamingConnectionId !== undefined && session.payload.roaming_connection_id !== s.roamingConnectionId) {
    throw new DomainError('conflicting_resubmission', `session ${s.sessionId} was received through another roaming connection`, { path: ['roaming_connection_id'] });
  }

  const path = firstDifference(session.source, session.payload, s.payload);
  if (path === null) return { id: session.id, status: session.status, receivedAt: session.receivedAt, duplicate: true };
  if (session.status === 'priced' || session.status === 'processed' || session.status === 'discarded' || session.pricingVersion > 0) {
    const state = session.status === 'discarded' ? 'was discarded' : session.status === 'processed' ? 'is processed' : 'is priced';
    throw new DomainError('conflicting_resubmission',
      `session ${s.sessionId} was received before with other content and ${state}: ${fieldLabel(path)} differs (corrections of priced sessions go through correction and repricing)`,
      { path });
  }
  const now = new Date();
  if (dropoutCase?.status === 'open') {
    const others = await tx.count(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout', id: { $ne: session.id } }, { filters: false });
    if (others === 0) dropoutCase.resolve('retry', now);
    else dropoutCase.sessionCount -= 1;
  }
  Object.assign(session, {
    sessionId: s.sessionId, cpoId: s.cpoId, evcoId: s.evcoId, startAt: s.startAt, endAt: s.endAt, energyKwh: s.energyKwh,
    idleSeconds: s.idleSeconds, timeZone: s.timeZone, country: s.country, evseId: s.evseId, evseUid: s.evseUid, payload: s.payload,
    submitterAdminIds: submitterAdminIds(callerScope(tx)),
    // Its driver's side is what processing resolves for the new content (its token may be another
    // administration's); a CPO session stays its EVSE's, which its identity names.
    admin: session.source === 'cpo_charge_session' ? session.admin : null, driverAdmin: session.source === 'cpo_charge_session' ? session.admin : null,
    receivedAt: now, status: 'received', bypassChecks: [], dropoutCase: null, dropoutReason: null, dropoutMessage: null,
    matchAttempts: 0, retryAt: null,
  });
  await tx.flush();
  if (kick) await requestProcessingIn(tx);
  return { id: session.id, status: 'received', receivedAt: now, duplicate: false };
}

export async function resubmitSession(em: Em, s: SessionSubmission, identityKey: string, kick: boolean): Promise<IngestedSession> {
  try {
    for (;;) {
      // null: the session moved to another drop-out case between the look and the lock; look again.
      const answer = await em.fork().transactional((tx) => resubmitOnce(tx, s, identityKey, kick));
      if (answer) return answer;
    }
  } finally {
    // A worker that claimed while the row was locked skipped it (SKIP LOCKED); a refusal or a repeat
    // adds no job in the transaction, so the session would wait for the minute job.
    if (kick) requestProcessing(em);
  }
}
