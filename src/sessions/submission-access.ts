// What a credential limited to administrations may submit as a charge session (decisions.md
// "Access"): a session becomes the session of the administration of its token (POST
// /charge-session) or of its EVSE (POST /cpo-charge-session), so a limited credential names a token
// or EVSE it sees: any other, of another administration or none at all, is 400 not_found at
// $.evco_id / $.evse_uid. A session identity (sender and session id) is unique in the instance: one
// taken by a session the caller cannot see is 400 duplicate at $.session_id, and that session is
// neither answered nor resubmitted. A credential without a limit (and an OCPI peer, the demo, the
// CLI: no limit) submits as before.
//
// The check before the write sees the identities stored then. A session another caller stores
// meanwhile (the same identity sent by two administrations at once) is checked again where a repeat
// with other content would be resubmitted, under the session's row lock (assertResubmittable).
import { callerScope, canSeeAdministration, type AdminScope } from '../access/admin-scope.ts';
import { tokensSeen } from '../msp/token-lookup.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { SessionSubmission } from './session-submission.ts';
import type { ChargeSession } from './charge-session.entity.ts';

interface Stored { identity_key: string; admin_id: string | null; source: string; evco_id: string; evse_uid: string | null }

// Each stored session with the key asked for, as sent (`asked`): the casing compared is the
// database's (citext), which JavaScript's toLowerCase does not repeat (U+0130).
const STORED = `select k.value as asked, s.identity_key, s.admin_id, s.source, s.evco_id, s.evse_uid
  from json_array_elements_text(?::json) k join msp_charge_session s on s.identity_key = k.value::citext`;

// The uids asked for, as sent, of the EVSEs of the caller's administrations (compared by the database, citext).
const EVSES_SEEN = `select k.value as asked from json_array_elements_text(?::json) k
  where exists (select 1 from cpo_evse e where e.evse_uid = k.value::citext and (?::boolean or e.admin_id in (select value::citext from json_array_elements_text(?::json))))`;

async function evsesSeen(em: Em, evseUids: string[]): Promise<(evseUid: string | null) => boolean> {
  const uids = [...new Set(evseUids)];
  const scope = callerScope(em);
  const found = uids.length ? await em.execute<{ asked: string }[]>(EVSES_SEEN, [JSON.stringify(uids), scope.all, JSON.stringify(scope.ids)]) : [];
  const seen = new Set(found.map((row) => row.asked));
  return (evseUid) => evseUid !== null && seen.has(evseUid);
}

export async function assertSubmittable(em: Em, submission: SessionSubmission, identityKey: string): Promise<void> {
  const [refusal] = await submissionRefusals(em, [{ submission, identityKey }]);
  if (refusal) throw refusal;
}

/** Why the caller may not submit each session (null: it may), in order; three statements for any number of sessions. */
export async function submissionRefusals(em: Em, sessions: { submission: SessionSubmission; identityKey: string }[]): Promise<(DomainError | null)[]> {
  const scope = callerScope(em);
  if (scope.all) return sessions.map(() => null);
  const keys = [...new Set(sessions.map((s) => s.identityKey))];
  const stored = new Map((await em.execute<(Stored & { asked: string })[]>(STORED, [JSON.stringify(keys)])).map((row) => [row.asked, row]));
  // Not processed yet (no administration): the administration its token or EVSE will give it.
  const unowned = [...stored.values()].filter((row) => row.admin_id === null);
  const seesToken = await tokensSeen(em, [
    ...sessions.filter((s) => s.submission.source === 'charge_session').map((s) => s.submission.evcoId),
    ...unowned.filter((row) => row.source !== 'cpo_charge_session').map((row) => row.evco_id),
  ]);
  const seesEvse = await evsesSeen(em, [
    ...sessions.flatMap((s) => (s.submission.source === 'cpo_charge_session' && s.submission.evseUid !== null ? [s.submission.evseUid] : [])),
    ...unowned.flatMap((row) => (row.source === 'cpo_charge_session' && row.evse_uid !== null ? [row.evse_uid] : [])),
  ]);
  return sessions.map(({ submission, identityKey }) => {
    if (submission.source === 'cpo_charge_session') {
      if (!seesEvse(submission.evseUid)) return new NotFoundError('EVSE', { path: ['evse_uid'] });
    } else if (!seesToken(submission.evcoId)) {
      return new NotFoundError('token', { path: ['evco_id'] });
    }
    const row = stored.get(identityKey);
    return !row || sees(scope, row, seesToken, seesEvse) ? null : identityTaken();
  });
}

/** Whether a stored session is the caller's: its administration's, or before processing (none yet) its token's or EVSE's. */
function sees(scope: AdminScope, row: Stored, seesToken: (evcoId: string) => boolean, seesEvse: (evseUid: string | null) => boolean): boolean {
  if (row.admin_id !== null) return canSeeAdministration(scope, row.admin_id);
  return row.source === 'cpo_charge_session' ? seesEvse(row.evse_uid) : seesToken(row.evco_id);
}

const identityTaken = () => new DomainError('duplicate', 'a session with this identity (sender and session_id) exists already', { path: ['session_id'] });

/** Before a resubmission changes the stored session (locked by the caller): 400 duplicate, as above, unless it is the caller's. */
export async function assertResubmittable(em: Em, session: ChargeSession): Promise<void> {
  const scope = callerScope(em);
  if (scope.all) return;
  const row: Stored = { identity_key: session.identityKey, admin_id: session.admin?.id ?? null, source: session.source, evco_id: session.evcoId, evse_uid: session.evseUid ?? null };
  const seesToken = row.admin_id === null && row.source !== 'cpo_charge_session' ? await tokensSeen(em, [row.evco_id]) : () => false;
  const seesEvse = row.admin_id === null && row.source === 'cpo_charge_session' ? await evsesSeen(em, row.evse_uid === null ? [] : [row.evse_uid]) : () => false;
  if (!sees(scope, row, seesToken, seesEvse)) throw identityTaken();
}

/** What a session stores of its submitter's administrations (null: every); processing prices its driver's side only on a token of one of them. */
export function submitterAdminIds(scope: AdminScope): string[] | null {
  return scope.all ? null : [...scope.ids];
}
