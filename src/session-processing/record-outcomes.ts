// Recording a batch's outcomes in its transaction, one statement per kind of write: sessions that
// could not be priced join the open drop-out case of their group (reason, administration, detail;
// created when there is none), the reimbursement records (src/cpo/save-session-reimbursements.ts),
// the roaming costs (roaming-costs.ts), the pricing results and the sessions as plain rows, their
// events, the billing of priced sessions (and the withdrawal of sessions priced before that this
// batch leaves unpriced) and changed reimbursements, and the run of the next matching attempt.
import { LockMode } from '@mikro-orm/core';
import { billReimbursements } from '../cpo/cpo-reimbursement.source.ts';
import { billPricedSessions } from '../billing/sources/msp-session.source.ts';
import { saveSessionReimbursements, type ReimbursedSession } from '../cpo/save-session-reimbursements.ts';
import { serializeEventData } from '../events/event-renderers.ts';
import { recordEventRows, sessionEventKind } from '../events/event-sql.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import { feedIds } from '../platform/feed-horizon.ts';
import { uuidv7 } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import {
  chargeSessionDataOfRows, cpoSideView, mspSideView, pricingResultDataOfRows, seenBy, type ChargeSessionData,
} from '../sessions/charge-session.queries.ts';
import type { EventKindName } from '../events/event-kinds.ts';
import { DropoutCase, type DropoutSide } from '../sessions/dropout-case.entity.ts';
import { PricingResult } from '../sessions/pricing-result.entity.ts';
import { storedRow } from '../sessions/stored-row.ts';
import { requestProcessingAt } from '../sessions/processing-job.ts';
import type { Resolved } from './batch-context.ts';
import type { ClaimedSession } from './claim-batch.ts';
import type { DropoutReason } from './dropout-reasons.ts';
import type { RoamingBatch } from './roaming-costs.ts';

/** What a batch writes back for one session. */
export interface SessionOutcome {
  id: string;
  /** received: a CPO session waiting for its next matching attempt. */
  status: 'priced' | 'processed' | 'received' | 'dropout';
  /** The session's administration: of a CPO session, its EVSE's (the CPO side); else its subscription's. */
  admin_id: string | null;
  /** The administration of the driver's side (the MSP views, MSP drop-outs): its subscription's once priced or resolved, else admin_id. */
  driver_admin_id: string | null;
  token_id: string | null;
  subscription_id: string | null;
  customer_id: string | null;
  dropout_case_id: string | null;
  dropout_reason: string | null;
  dropout_message: string | null;
  pricing_version: number;
  match_attempts: number;
  retry_at: string | null;
  matched_evse_id: string | null;
  location_id: string | null;
  connector_id: string | null;
  reimbursement_excl_vat: string | null;
}

export interface Dropout { outcome: SessionOutcome; reason: DropoutReason; message: string; detail?: string; side?: DropoutSide; evseUid?: string | null }

/** What the steps of a batch leave to be written. */
export class BatchOutcomes {
  readonly outcomes: SessionOutcome[] = [];
  /** Pricing result rows (msp-side.ts). */
  readonly results: Record<string, unknown>[] = [];
  readonly dropouts: Dropout[] = [];
  readonly reimbursed: ReimbursedSession[] = [];

  /**
   * The sessions priced before (a pricing version) that the batch leaves unpriced: dropped out, or
   * processed without pricing. They are billed no more, and the credit their results used goes back.
   */
  unpricedAgain(): SessionOutcome[] {
    return [...this.dropouts.map((d) => d.outcome), ...this.outcomes.filter((o) => o.status === 'processed')].filter((o) => o.pricing_version > 0);
  }

  /**
   * A session's outcome as it enters the pipeline: priced, unless a step says otherwise. A CPO
   * session is its local EVSE's administration's (none while the EVSE is not known); any other its
   * subscription's, or, when its token resolves to none, the administration it had (a resubmission
   * clears it: resubmit-session.service.ts). The driver's side starts as the session's; the MSP side
   * of a CPO session makes it the driver's (`toDriverSide`).
   */
  start(session: ClaimedSession, r: Resolved | undefined, evseAdminId: string | null): SessionOutcome {
    const adminId = session.source === 'cpo_charge_session' ? evseAdminId : r?.subscription.admin.id ?? session.admin_id;
    // A CPO session's driver of another administration is recorded when the session reaches the
    // driver's side (toDriverSide): one that stops on the CPO side shows the EVSE's administration none of it.
    const driver = session.source !== 'cpo_charge_session' || sameAdministration(r?.subscription.admin.id, adminId) ? r : undefined;
    const outcome: SessionOutcome = {
      id: session.id, status: 'priced', admin_id: adminId, driver_admin_id: adminId, token_id: driver?.token.id ?? null,
      subscription_id: driver?.subscription.id ?? null, customer_id: driver?.subscription.customer.id ?? null,
      dropout_case_id: null, dropout_reason: null, dropout_message: null, pricing_version: session.pricing_version,
      match_attempts: session.match_attempts, retry_at: null, matched_evse_id: null, location_id: null, connector_id: null, reimbursement_excl_vat: null,
    };
    this.outcomes.push(outcome);
    return outcome;
  }

  /** The session goes to the MSP side: its driver's side is its subscription's, else the one it had, else the session's. */
  toDriverSide(outcome: SessionOutcome, session: ClaimedSession, r: Resolved | undefined): void {
    outcome.driver_admin_id = r?.subscription.admin.id ?? session.driver_admin_id ?? outcome.admin_id;
    Object.assign(outcome, { token_id: r?.token.id ?? null, subscription_id: r?.subscription.id ?? null, customer_id: r?.subscription.customer.id ?? null });
  }
}

const INSERT_RESULTS = `insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id,
    subscription_external_reference, token_evco_id, currency, rate_plan_id, rate_plan_version_id, rule, subtotals,
    total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, roaming_agreement, explanation, created_at)
  select id, session_id, version, admin_id, customer_id, subscription_id, subscription_external_reference, token_evco_id, currency,
    rate_plan_id, rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, roaming_agreement,
    explanation, now()
  from jsonb_populate_recordset(null::msp_pricing_result, $1::jsonb)`;

// Both sides' administrations as this processing decided them (`start`, `toDriverSide`): a session
// resubmitted with another administration's token is not kept by the administration it had.
const UPDATE_SESSIONS = `update msp_charge_session s set status = v.status, admin_id = v.admin_id, driver_admin_id = v.driver_admin_id,
    token_id = v.token_id, subscription_id = v.subscription_id, customer_id = v.customer_id, dropout_case_id = v.dropout_case_id,
    dropout_reason = v.dropout_reason, dropout_message = v.dropout_message, pricing_version = v.pricing_version,
    match_attempts = v.match_attempts, retry_at = v.retry_at, matched_evse_id = v.matched_evse_id, location_id = v.location_id,
    connector_id = v.connector_id, reimbursement_excl_vat = v.reimbursement_excl_vat, updated_at = now()
  from jsonb_populate_recordset(null::msp_charge_session, $1::jsonb) v where s.id = v.id`;

const sameAdministration = (a: string | null | undefined, b: string | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** A CPO case is the CPO side's administration's, an MSP case the driver's side's. */
const caseAdminOf = (dropout: Dropout) => (dropout.side === 'cpo' ? dropout.outcome.admin_id : dropout.outcome.driver_admin_id);

function groupKeyOf(dropout: Dropout): string {
  const key = [dropout.reason, caseAdminOf(dropout) ?? '-', dropout.detail ?? ''].join('|');
  return dropout.side === 'cpo' ? `cpo|${key}` : key;
}

// Batches of several workers (processes) record drop-outs of one group at the same time: a lock
// per group key (its own class, next to the events' 736400117 and 736400118 and box numbering's
// 736400119), taken in hash order against deadlocks and held to the commit, makes the second wait
// until the first has created or counted the case, then read it afresh. Without it both created
// the case (the second failed on open_key) or both counted from the same number (drop-outs lost).
// The open cases are locked as resubmission and reprocessing lock them, which change them too.
const LOCK_GROUP_KEYS = `select count(pg_advisory_xact_lock(736400120, h))
  from (select distinct hashtext(k) as h from json_array_elements_text(?::json) as k order by h) ordered`;

async function recordDropouts(em: Em, dropouts: Dropout[]): Promise<void> {
  if (dropouts.length === 0) return;
  const keys = [...new Set(dropouts.map(groupKeyOf))];
  await em.execute(LOCK_GROUP_KEYS, [JSON.stringify(keys)]);
  const open = await em.find(DropoutCase, { openKey: { $in: keys } }, { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  const byKey = new Map(open.map((c) => [c.groupKey, c]));
  for (const dropout of dropouts) {
    const key = groupKeyOf(dropout);
    let dropoutCase = byKey.get(key);
    if (!dropoutCase) {
      dropoutCase = em.create(DropoutCase, {
        id: uuidv7(), admin: caseAdminOf(dropout), side: dropout.side ?? 'msp', reason: dropout.reason, evseUid: dropout.evseUid ?? null,
        groupKey: key, openKey: key, message: dropout.message,
      });
      byKey.set(key, dropoutCase);
    }
    dropoutCase.sessionCount += 1;
    Object.assign(dropout.outcome, {
      status: 'dropout', dropout_case_id: dropoutCase.id, dropout_reason: dropout.reason, dropout_message: dropout.message,
    });
  }
}

/**
 * A processed session's events: an event's administration decides who gets it, so its data is the
 * session as that administration's credentials see it. A CPO session whose driver's side is another
 * administration's gives its CPO side's an event of the CPO view (the driver's side as of a driver not
 * ours) and the driver's side's an event of the MSP view.
 */
function sessionEvents(kind: EventKindName, o: SessionOutcome, data: ChargeSessionData) {
  const event = (eventKind: EventKindName, adminId: string | null, view: ChargeSessionData) => ({
    kind: eventKind, resource_id: o.id, modification: 'update' as const, admin_id: adminId,
    changes: { status: ['received', view.status] as [unknown, unknown] }, data: serializeEventData(eventKind, [view])[0],
  });
  if (kind !== 'cpo_charge_session') return [event(kind, o.admin_id, mspSideView(data, seenBy(o.admin_id)))];
  const own = event(kind, o.admin_id, cpoSideView(data, seenBy(o.admin_id)));
  const driverElsewhere = o.driver_admin_id !== null && o.driver_admin_id.toLowerCase() !== o.admin_id?.toLowerCase();
  return driverElsewhere ? [own, event('msp_charge_session', o.driver_admin_id, mspSideView(data, seenBy(o.driver_admin_id)))] : [own];
}

export async function recordOutcomes(em: Em, sessions: ClaimedSession[], roaming: RoamingBatch, batch: BatchOutcomes): Promise<void> {
  const { outcomes, results } = batch;
  await recordDropouts(em, batch.dropouts);
  // A session that dropped out on the CPO side reimburses nothing (what an earlier processing reimbursed
  // is withdrawn); one whose driver's side dropped out keeps its owner's reimbursement.
  const cpoDropouts = new Set(batch.dropouts.filter((d) => d.side === 'cpo').map((d) => d.outcome.id));
  const cpoSessions = new Set(sessions.filter((s) => s.source === 'cpo_charge_session').map((s) => s.id));
  const saved = await saveSessionReimbursements(em, batch.reimbursed.filter((x) => !cpoDropouts.has(x.sessionId)),
    [...cpoDropouts].filter((id) => cpoSessions.has(id)));
  for (const outcome of outcomes) if (saved.totals.has(outcome.id)) outcome.reimbursement_excl_vat = saved.totals.get(outcome.id)!;
  await em.flush();
  await roaming.save(em, outcomes, results);
  if (results.length) {
    // Their ids now, from the feed's writer (GET /msp-charge-session-priced pages below what is still to commit).
    const ids = await feedIds(em, 'pricingResults', results.length);
    results.forEach((result, i) => { result.id = ids[i]; });
    await boundQuery(em, INSERT_RESULTS, [JSON.stringify(results)]);
  }
  const sessionRows = await boundQuery(em, `${UPDATE_SESSIONS} returning s.*`, [JSON.stringify(outcomes)]);
  // The batch's last change of its sessions and results: their events' data is rendered from the
  // rows written (the sessions as the UPDATE returns them, the results as the INSERT stored them).
  const sessionData = new Map(chargeSessionDataOfRows(em, sessionRows).map((s) => [s.id, s]));
  const createdAt = sessions[0].transaction_at;
  const resultRows = results.map((r) => storedRow(em, PricingResult, { ...r, roaming_agreement: r.roaming_agreement ?? null, created_at: createdAt }));
  const resultData = new Map(pricingResultDataOfRows(em, resultRows, (id) => sessionData.get(id)!).map((r) => [r.id, r]));
  const sourceOf = new Map(sessions.map((s) => [s.id, s.source]));
  await recordEventRows(em, [
    ...outcomes.filter((o) => o.status !== 'received').flatMap((o) => sessionEvents(sessionEventKind(sourceOf.get(o.id)!), o, sessionData.get(o.id)!)),
    ...results.map((r) => ({
      kind: 'msp_charge_session_priced' as const, resource_id: String(r.id), modification: 'create' as const, admin_id: String(r.admin_id),
      data: serializeEventData('msp_charge_session_priced', [resultData.get(String(r.id))!])[0],
    })),
  ]);
  // A session priced before that this batch leaves unpriced is no longer billed to its customer: its
  // item is withdrawn (reversed once its box is closed). One priced again is billed as its new result
  // says, and only so: a line that result no longer has is withdrawn, every line of a result without
  // any (charging made free).
  await billPricedSessions(em, results.map((result) => String(result.session_id)), results.map((result) => String(result.admin_id)),
    [...batch.unpricedAgain().map((o) => o.id), ...results.filter((result) => Number(result.version) > 1).map((result) => String(result.session_id))]);
  await billReimbursements(em, saved.changed);
  const retries = outcomes.filter((o) => o.retry_at).map((o) => o.retry_at!).sort();
  if (retries.length) await requestProcessingAt(em, new Date(retries[0]));
}
