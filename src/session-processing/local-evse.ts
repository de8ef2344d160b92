// A session's local EVSE: by its evse_uid, else the EVSE that held its EVSE ID at the session's
// start (an EVSE ID may have moved since), else the EVSE of that EVSE ID that never moved. Loaded
// with two queries for a list of sessions (none when they name no EVSE).
import { LockMode } from '@mikro-orm/core';
import { EvseIdAssignment } from '../cpo/evse-id-assignment.entity.ts';
import { normalizeEvseId } from '../cpo/evse-id.ts';
import { Evse } from '../cpo/evse.entity.ts';
import type { Em } from '../platform/orm.ts';
import { isValidAt } from '../platform/validity.ts';

/** What of a session names its EVSE. */
export interface EvseFacts { evse_uid: string | null; evse_id: string | null; start_at: Date }

export async function loadLocalEvses(em: Em, sessions: EvseFacts[]) {
  const evseUids = [...new Set(sessions.map((s) => s.evse_uid).filter((v): v is string => !!v))];
  const evseIds = [...new Set(sessions.map(evseIdOf).filter((v): v is string => v !== null))];
  const named = evseUids.length || evseIds.length
    ? await em.find(Evse, { $or: [{ evseUid: { $in: evseUids } }, { evseIdNormalized: { $in: evseIds } }] }, { filters: false, populate: ['location', 'admin'] })
    : [];
  // A holder loaded as fully as the EVSEs named now: its location and administration decide the match, its links the reimbursement.
  const assignments = evseIds.length
    ? await em.find(EvseIdAssignment, { evseIdNormalized: { $in: evseIds } }, { populate: ['evse', 'evse.location', 'evse.admin'], filters: false })
    : [];
  const evses = [...new Set([...named, ...assignments.map((a) => a.evse)])];
  await holdConfiguringEvses(em, evses);
  const holderAt = (evseId: string, at: Date) => assignments.find((a) => a.evseIdNormalized === evseId && isValidAt(a, at))?.evse;
  const localEvse = (session: EvseFacts): Evse | undefined => {
    const evseId = evseIdOf(session);
    return evses.find((e) => session.evse_uid && e.evseUid.toLowerCase() === session.evse_uid.toLowerCase())
      ?? (evseId ? holderAt(evseId, session.start_at) : undefined)
      ?? evses.find((e) => evseId && e.evseIdNormalized === evseId && !assignments.some((a) => a.evseIdNormalized === e.evseIdNormalized));
  };
  return { localEvse };
}

/** A session's EVSE ID as compared, or null: one of separators only names no EVSE (an EVSE stored with one before it was refused held no ID). */
function evseIdOf(session: EvseFacts): string | null {
  return session.evse_id ? normalizeEvseId(session.evse_id) || null : null;
}

/**
 * EVSEs being configured (dropout_all_chargesessions) are held for the batch's transaction and read
 * again: a switch-off waits for the batch's drop-outs to commit, then retries them (it had retried
 * before they existed: a case nothing retried); one switched off meanwhile takes its sessions.
 */
async function holdConfiguringEvses(em: Em, evses: Evse[]): Promise<void> {
  const configuring = evses.filter((evse) => evse.dropoutAllChargesessions).map((evse) => evse.id).sort();
  if (!configuring.length) return;
  await em.find(Evse, { id: { $in: configuring } }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true, filters: false, orderBy: { id: 'asc' } });
}
