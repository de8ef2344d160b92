// What a credential limited to administrations may submit as a charge session (decisions.md
// "Access"): a session becomes the session of the administration of its token (POST
// /charge-session) or of its EVSE (POST /cpo-charge-session), so a limited credential names a token
// or EVSE it sees: any other, of another administration or none at all, is 400 not_found at
// $.evco_id / $.evse_uid. A session identity (sender and session id) is unique in the instance: one
// taken by a session the caller cannot see is 400 duplicate at $.session_id, and that session is
// neither answered nor resubmitted. A credential without a limit (and an OCPI peer, the demo, the
// CLI: no limit) submits as before.
import { callerScope, canSeeAdministration } from '../access/admin-scope.ts';
import { Evse } from '../cpo/evse.entity.ts';
import { findTokenByEvcoId } from '../msp/token-lookup.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { SessionSubmission } from './session-submission.ts';

const seesEvse = async (em: Em, evseUid: string | null) => !!evseUid && !!(await em.findOne(Evse, { evseUid }, { fields: ['id'] }));
const seesToken = async (em: Em, evcoId: string) => !!(await findTokenByEvcoId(em, evcoId));

export async function assertSubmittable(em: Em, submission: SessionSubmission, identityKey: string): Promise<void> {
  const scope = callerScope(em);
  if (scope.all) return;
  if (submission.source === 'cpo_charge_session') {
    if (!await seesEvse(em, submission.evseUid)) throw new NotFoundError('EVSE', { path: ['evse_uid'] });
  } else if (!await seesToken(em, submission.evcoId)) {
    throw new NotFoundError('token', { path: ['evco_id'] });
  }
  const [stored] = await em.execute<{ admin_id: string | null; source: string; evco_id: string; evse_uid: string | null }[]>(
    'select admin_id, source, evco_id, evse_uid from msp_charge_session where identity_key = ?', [identityKey]);
  if (!stored) return;
  // Processed: the session's administration; not yet: the administration its token or EVSE will give it.
  const visible = stored.admin_id !== null ? canSeeAdministration(scope, stored.admin_id)
    : stored.source === 'cpo_charge_session' ? await seesEvse(em, stored.evse_uid) : await seesToken(em, stored.evco_id);
  if (!visible) throw new DomainError('duplicate', 'a session with this identity (sender and session_id) exists already', { path: ['session_id'] });
}
