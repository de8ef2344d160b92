// An OCPI Session and the charge session its CDR became (the CDR's session_id names the Session, of the
// same connection and party): once linked, GET /msp-charge-session-progress shows the charge session
// instead of the Session. Either may arrive first; each side links under the Session's lock
// (ocpi-object-lock.ts), so whichever comes second sees the other.
import type { Em } from '../platform/orm.ts';
import { lockedSession } from './ocpi-object-lock.ts';
import type { SessionKey } from './ocpi-session.queries.ts';
import type { OcpiCdr } from './schemas/cdr.ts';

/** The CDR's side, in the caller's transaction: its Session, when stored, names the charge session. */
export async function linkSessionOfCdr(tx: Em, roamingConnectionId: string, cdr: Pick<OcpiCdr, 'country_code' | 'party_id' | 'session_id'>, chargeSessionId: string): Promise<void> {
  if (!cdr.session_id) return;
  const session = await lockedSession(tx, roamingConnectionId, { countryCode: cdr.country_code, partyId: cdr.party_id, sessionId: cdr.session_id });
  if (session) session.chargeSessionId = chargeSessionId;
}

/**
 * The Session's side, its lock held: the charge session a CDR of it already became (the latest, when
 * several did), or null. Read through the token's index (evco_id): the CDR names the Session's token.
 */
export async function chargeSessionOfCdrs(tx: Em, roamingConnectionId: string, key: SessionKey, evcoId: string): Promise<string | null> {
  const [row] = await tx.execute<{ id: string }[]>(`select id from msp_charge_session where evco_id = ? and cpo_id = ?
      and payload->>'roaming_connection_id' = ? and payload->>'cpo_session_id' = ?
    order by id desc limit 1`, [evcoId, `${key.countryCode}*${key.partyId}`, roamingConnectionId, key.sessionId]);
  return row?.id ?? null;
}

/**
 * The id of another CDR of the Session stored as a charge session (not the one of `identityKey`), or
 * null: OCPI corrects a CDR by a credit CDR and a new CDR, so a second CDR of a Session is a correction.
 */
export async function otherCdrOfSession(tx: Em, roamingConnectionId: string, key: SessionKey, evcoId: string, identityKey: string): Promise<string | null> {
  const [row] = await tx.execute<{ session_id: string }[]>(`select session_id from msp_charge_session where evco_id = ? and cpo_id = ?
      and payload->>'roaming_connection_id' = ? and payload->>'cpo_session_id' = ? and identity_key <> ?
    order by id limit 1`, [evcoId, `${key.countryCode}*${key.partyId}`, roamingConnectionId, key.sessionId, identityKey]);
  return row?.session_id ?? null;
}
