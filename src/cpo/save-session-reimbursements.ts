// Writes the reimbursement records of a processing batch (src/session-processing/process-sessions.service.ts)
// in its transaction: one record per session and arrangement; a record whose amounts changed gets
// the next version (billing follows versions), one whose arrangement no longer applies is removed.
import { feedIds } from '../platform/feed-horizon.ts';
import type { Em } from '../platform/orm.ts';
import { sumCurrency } from '../money/decimal.ts';
import { jsonEqual } from '../platform/json-equal.ts';
import type { ReimbursementDraft } from './reimburse-session.ts';
import { SessionReimbursement, type ReimbursedEvse } from './session-reimbursement.entity.ts';

export interface ReimbursedSession {
  sessionId: string;
  startAt: Date;
  endAt: Date;
  evse: ReimbursedEvse;
  tariffCode: string | null;
  chargingPeriods: unknown[];
  drafts: ReimbursementDraft[];
}

// Compared as data: the stored subtotals come back from jsonb with their keys in another order, and as
// text they never matched, so every reprocessing of an unchanged session made a new version (a
// reversal and the same line again in the owner's next open box).
const sameAmounts = (record: SessionReimbursement, draft: ReimbursementDraft) => jsonEqual(record.subtotals, draft.subtotals)
  && record.currency === draft.currency;

/**
 * Saves the records; answers each session's total excl. VAT (null without records) and whether any
 * record changed. The sessions of `withdrawn` (a drop-out of the CPO side) lose their records.
 */
export async function saveSessionReimbursements(em: Em, sessions: ReimbursedSession[], withdrawn: string[] = []): Promise<{ totals: Map<string, string | null>; changed: string[] }> {
  const totals = new Map<string, string | null>();
  const changed: string[] = [];
  if (sessions.length === 0 && withdrawn.length === 0) return { totals, changed };
  const existing = await em.find(SessionReimbursement, { sessionId: { $in: [...sessions.map((s) => s.sessionId), ...withdrawn] } }, { filters: false });
  for (const sessionId of withdrawn) {
    const mine = existing.filter((r) => r.sessionId === sessionId);
    for (const record of mine) em.remove(record);
    if (mine.length) changed.push(sessionId);
  }
  // New records take their ids from the feed (GET /cpo-charge-session-reimbursement pages below what is still to commit).
  const created = sessions.reduce((n, session) => n + session.drafts
    .filter((draft) => !existing.some((r) => r.sessionId === session.sessionId && r.arrangementId === draft.arrangement.id)).length, 0);
  const ids = created ? await feedIds(em, 'sessionReimbursements', created) : [];
  for (const session of sessions) {
    const mine = existing.filter((r) => r.sessionId === session.sessionId);
    let touched = false;
    for (const draft of session.drafts) {
      const values = {
        admin: draft.arrangement.admin, arrangementExternalReference: draft.arrangement.externalReference ?? null,
        planId: draft.arrangement.plan?.id ?? null, mode: draft.mode, customerId: draft.arrangement.customer.id,
        customerExternalReference: draft.arrangement.customer.externalReference ?? null, currency: draft.currency,
        startAt: session.startAt, endAt: session.endAt, evseUid: session.evse.evse_uid, evse: session.evse, tariffCode: session.tariffCode,
        chargingPeriods: session.chargingPeriods, subtotals: draft.subtotals, totalExclVat: draft.totalExclVat, totalVat: draft.totalVat,
        totalInclVat: draft.totalInclVat, vatCountry: draft.vat.country, vatKind: draft.vat.kind, vatPercent: draft.vat.percent,
        explanation: draft.explanation,
      };
      const record = mine.find((r) => r.arrangementId === draft.arrangement.id);
      if (!record) {
        em.create(SessionReimbursement, { id: ids.shift()!, sessionId: session.sessionId, arrangementId: draft.arrangement.id, version: 1, ...values });
        touched = true;
      } else if (!sameAmounts(record, draft)) {
        Object.assign(record, values, { version: record.version + 1 });
        touched = true;
      } else {
        Object.assign(record, { explanation: draft.explanation, evse: session.evse });
      }
    }
    for (const record of mine) {
      if (!session.drafts.some((d) => d.arrangement.id === record.arrangementId)) {
        em.remove(record);
        touched = true;
      }
    }
    totals.set(session.sessionId, session.drafts.length ? sumCurrency(session.drafts.map((d) => d.totalExclVat)) : null);
    if (touched) changed.push(session.sessionId);
  }
  return { totals, changed };
}
