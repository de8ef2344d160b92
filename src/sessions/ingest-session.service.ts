// Ingestion of a charge session: one INSERT .. ON CONFLICT DO NOTHING on the session's identity,
// so the same session sent twice (also at the same moment) is stored once; the repeat answers
// the stored session. Processing happens asynchronously (session-queue.ts).
import { uuidv7 } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import type { SessionSource, SessionStatus } from './charge-session.entity.ts';
import { requestProcessing } from './session-queue.ts';

export interface SessionSubmission {
  source: SessionSource;
  sessionId: string;
  /** Who sent it: the CPO party (charge-session) or the EVSE (cpo-charge-session). */
  sender: string;
  cpoId: string | null;
  evcoId: string;
  startAt: Date;
  endAt: Date;
  energyKwh: string;
  idleSeconds: number;
  timeZone: string;
  country: string;
  evseId: string | null;
  evseUid: string | null;
  payload: Record<string, unknown>;
}

export interface IngestedSession { id: string; status: SessionStatus; receivedAt: Date; duplicate: boolean }

export function identityKeyOf(submission: Pick<SessionSubmission, 'source' | 'sender' | 'sessionId'>): string {
  return `${submission.source}:${submission.sender.replace(/[*\-\s]/g, '')}:${submission.sessionId}`;
}

const INSERT = `insert into msp_charge_session
  (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds, time_zone, country,
   evse_id, evse_uid, payload, received_at, status, bypass_checks, pricing_version, created_at, updated_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'received', '[]', 0, ?, ?)
  on conflict (identity_key) do nothing
  returning id, status, received_at`;

/** `kick: false` leaves the session to the worker's next job (demo data written before the queue exists). */
export async function ingestSession(em: Em, s: SessionSubmission, options: { kick?: boolean } = {}): Promise<IngestedSession> {
  const now = new Date();
  const key = identityKeyOf(s);
  const inserted = await em.execute<{ id: string; status: SessionStatus; received_at: Date }[]>(INSERT, [
    uuidv7(now.getTime()), s.source, key, s.sessionId, s.cpoId, s.evcoId, s.startAt, s.endAt, s.energyKwh, s.idleSeconds,
    s.timeZone, s.country, s.evseId, s.evseUid, JSON.stringify(s.payload), now, now, now,
  ]);
  if (inserted.length === 1) {
    if (options.kick !== false) requestProcessing(em);
    return { id: inserted[0].id, status: inserted[0].status, receivedAt: new Date(inserted[0].received_at), duplicate: false };
  }
  const [stored] = await em.execute<{ id: string; status: SessionStatus; received_at: Date }[]>(
    'select id, status, received_at from msp_charge_session where identity_key = ?', [key]);
  return { id: stored.id, status: stored.status, receivedAt: new Date(stored.received_at), duplicate: true };
}
