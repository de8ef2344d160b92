// One processing batch, the pipeline every received session goes through, in one transaction: claim
// a batch (claim-batch.ts), read what it needs with one query per kind (batch-context.ts), take each
// session through its checks, the CPO side (match, reimburse: cpo-side.ts), its roaming cost
// (roaming-costs.ts), our driver's charge at our EVSE priced on one of its two reports
// (own-charge.ts) and the MSP side (resolve the token, price, pay with credit: msp-side.ts), and
// record every outcome with one statement per kind of write (record-outcomes.ts). A failing step is
// the session's drop-out (dropout-reasons.ts). A batch the database refuses for what one session's
// rows hold is taken again one session at a time (`processOneByOne`), so that session alone stops.
import { scopedEm } from '../access/admin-scope.ts';
import { isTransientDatabaseError, sqlStateOf } from '../platform/database-health.ts';
import { logger } from '../platform/log.ts';
import type { Em, Orm } from '../platform/orm.ts';
import type { DropoutSide } from '../sessions/dropout-case.entity.ts';
import { loadBatchContext, type BatchContext } from './batch-context.ts';
import { checkValidity, claimBatch, pricingFacts, type ClaimedSession } from './claim-batch.ts';
import { checkEvse, matchCpoSession, reimburse, reimbursedSession } from './cpo-side.ts';
import { dropoutOf } from './dropout-reasons.ts';
import { checkReportedCurrency, price, resolve } from './msp-side.ts';
import { chargedAsCpoSession } from './own-charge.ts';
import { BatchOutcomes, recordOutcomes } from './record-outcomes.ts';
import { costRoaming } from './roaming-costs.ts';

/** Processes up to `limit` waiting sessions; answers how many it claimed. */
export async function processSessionBatch(orm: Orm, limit: number): Promise<number> {
  let claimed: string[] = [];
  try {
    return await inTransaction(orm, async (em) => {
      const sessions = await claimBatch(em, limit);
      claimed = sessions.map((s) => s.id);
      return sessions;
    });
  } catch (error) {
    if (claimed.length === 0 || !isSessionFault(error)) throw error;
    logger().warn({ err: error, sessions: claimed.length }, 'a processing batch failed: its sessions are processed one at a time');
    for (const id of claimed) await processOneByOne(orm, id);
    return claimed.length;
  }
}

// Data exceptions, integrity constraints, program limits (an index row too large), a trigger's raise.
const DATA_SQLSTATE_CLASSES = new Set(['22', '23', '54', 'P0']);

/**
 * Whether a failed batch may owe its failure to what one session's rows hold: a fault of our code
 * or a refusal of the data. A transient error (the job runs the batch again) or one of the
 * database itself (a missing column after a failed upgrade) would fail every session alike.
 */
function isSessionFault(error: unknown): boolean {
  if (isTransientDatabaseError(error)) return false;
  const state = sqlStateOf(error);
  return state === undefined || DATA_SQLSTATE_CLASSES.has(state.slice(0, 2));
}

/** One transaction: the claimed sessions through the pipeline, every outcome recorded. */
function inTransaction(orm: Orm, claim: (em: Em) => Promise<ClaimedSession[]>): Promise<number> {
  return scopedEm(orm).transactional(async (em) => {
    const sessions = await claim(em);
    if (sessions.length === 0) return 0;
    const context = await loadBatchContext(em, sessions);
    const batch = new BatchOutcomes();
    for (const session of sessions) processSession(em, context, batch, session);
    releaseUnpricedCredit(em, context, batch);
    await recordOutcomes(em, sessions, context.roaming, batch);
    return sessions.length;
  });
}

/**
 * A session of a failed batch alone. When the database refuses its outcome too (not for a moment:
 * a transient error is thrown on, and the job runs again), it drops out as `pricing_failed`; when
 * even that is refused, it waits an hour (`retry_at`), so that it holds up no other session.
 */
async function processOneByOne(orm: Orm, id: string): Promise<void> {
  try {
    await inTransaction(orm, (em) => claimBatch(em, 1, id));
    return;
  } catch (error) {
    if (!isSessionFault(error)) throw error;
    try {
      await scopedEm(orm).transactional(async (em) => {
        const [session] = await claimBatch(em, 1, id);
        if (!session) return;
        const context = await loadBatchContext(em, [session]);
        const batch = new BatchOutcomes();
        const outcome = batch.start(session, context.resolved(session), context.localEvse(session)?.admin.id ?? null);
        const side: DropoutSide = session.source === 'cpo_charge_session' ? 'cpo' : 'msp';
        batch.dropouts.push({ outcome, side, evseUid: side === 'cpo' ? (session.evse_uid ?? session.evse_id) : null, ...dropoutOf(error, session.id) });
        releaseUnpricedCredit(em, context, batch);
        await recordOutcomes(em, [session], context.roaming, batch);
      });
    } catch (again) {
      if (!isSessionFault(again)) throw again;
      logger().error({ err: again, session_id: id }, `session ${id} could not be processed nor dropped out: it waits an hour`);
      await scopedEm(orm).getConnection().execute(`update msp_charge_session set retry_at = now() + interval '1 hour' where id = ? and status = 'received'`, [id]);
    }
  }
}

/** Sessions the batch leaves unpriced are billed no more (record-outcomes.ts): the credit their results used goes back. */
function releaseUnpricedCredit(em: Em, context: BatchContext, batch: BatchOutcomes): void {
  for (const outcome of batch.unpricedAgain()) context.credit.releaseUnpriced(em, outcome.id);
}

function processSession(em: Em, context: BatchContext, batch: BatchOutcomes, session: ClaimedSession): void {
  const evse = context.localEvse(session);
  const outcome = batch.start(session, context.resolved(session), evse?.admin.id ?? null);
  // A CPO session's drop-outs are CPO cases, except those of pricing the driver's side.
  let side: DropoutSide = session.source === 'cpo_charge_session' ? 'cpo' : 'msp';
  try {
    const match = side === 'cpo' ? matchCpoSession(session, evse, outcome, context.retryPolicy, context.now) : null;
    if (outcome.status === 'received') return;
    checkValidity(session, context.limits);
    checkEvse(evse);
    const drafts = match ? reimburse(context, session, match) : [];
    // Our driver's charge at our EVSE is priced on one of its two reports (own-charge.ts).
    const pricedElsewhere = context.ownCharges.pricedElsewhere(session);
    // A CPO session of a driver who is not one of ours is processed (matched, reimbursed, its
    // roaming amount charged to the driver's MSP when that is a roaming partner) without MSP pricing;
    // so is one whose driver's side is priced as the driver's session.
    if (match && (!context.resolutionOf(session).token || pricedElsewhere)) {
      Object.assign(outcome, { status: 'processed', token_id: null, subscription_id: null, customer_id: null });
      costRoaming(() => context.roaming.calculateCharged(session, pricingFacts(session), match.evse));
      batch.reimbursed.push(reimbursedSession(session, match, drafts));
    } else {
      // The EVSE owner's reimbursement stands once the CPO side is done, whatever our driver's pricing
      // meets: a drop-out of the MSP side (kept, or discarded) no longer withholds it.
      if (match) batch.reimbursed.push(reimbursedSession(session, match, drafts));
      side = 'msp';
      batch.toDriverSide(outcome, session, context.resolved(session));
      const resolved = resolve(context, session);
      if (pricedElsewhere) throw chargedAsCpoSession();
      const { admin } = resolved.subscription;
      checkReportedCurrency(session, admin);
      costRoaming(() => context.roaming.calculate(session, pricingFacts(session), admin.id, admin.currency));
      batch.results.push(price(em, context, session, resolved, outcome));
      context.ownCharges.priced(session);
    }
  } catch (error) {
    batch.dropouts.push({ outcome, side, evseUid: side === 'cpo' ? (session.evse_uid ?? session.evse_id) : null, ...dropoutOf(error, session.id) });
  }
}
