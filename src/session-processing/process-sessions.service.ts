// One processing batch, the pipeline every received session goes through, in one transaction: claim
// a batch (claim-batch.ts), read what it needs with one query per kind (batch-context.ts), take each
// session through its checks, the CPO side (match, reimburse: cpo-side.ts), its roaming cost
// (roaming-costs.ts) and the MSP side (resolve the token, price, pay with credit: msp-side.ts), and
// record every outcome with one statement per kind of write (record-outcomes.ts). A failing step is
// the session's drop-out (dropout-reasons.ts).
import { scopedEm } from '../access/admin-scope.ts';
import type { Em, Orm } from '../platform/orm.ts';
import type { DropoutSide } from '../sessions/dropout-case.entity.ts';
import { loadBatchContext, type BatchContext } from './batch-context.ts';
import { checkValidity, claimBatch, pricingFacts, type ClaimedSession } from './claim-batch.ts';
import { checkEvse, matchCpoSession, reimburse, reimbursedSession } from './cpo-side.ts';
import { dropoutOf } from './dropout-reasons.ts';
import { price, resolve } from './msp-side.ts';
import { BatchOutcomes, recordOutcomes } from './record-outcomes.ts';
import { costRoaming } from './roaming-costs.ts';

export async function processSessionBatch(orm: Orm, limit: number): Promise<number> {
  return scopedEm(orm).transactional(async (em) => {
    const sessions = await claimBatch(em, limit);
    if (sessions.length === 0) return 0;
    const context = await loadBatchContext(em, sessions);
    const batch = new BatchOutcomes();
    for (const session of sessions) processSession(em, context, batch, session);
    await recordOutcomes(em, sessions, context.roaming, batch);
    return sessions.length;
  });
}

function processSession(em: Em, context: BatchContext, batch: BatchOutcomes, session: ClaimedSession): void {
  const outcome = batch.start(session, context.resolved(session));
  // A CPO session's drop-outs are CPO cases, except those of pricing the driver's side.
  let side: DropoutSide = session.source === 'cpo_charge_session' ? 'cpo' : 'msp';
  try {
    const evse = context.localEvse(session);
    const match = side === 'cpo' ? matchCpoSession(session, evse, outcome, context.retryPolicy, context.now) : null;
    if (outcome.status === 'received') return;
    checkValidity(session, context.limits);
    checkEvse(evse);
    const drafts = match ? reimburse(context, session, match) : [];
    // A CPO session of a driver who is not one of ours is processed (matched, reimbursed, its
    // roaming amount charged to the driver's MSP when that is a roaming partner) without MSP pricing.
    if (match && !context.resolutionOf(session).token) {
      outcome.status = 'processed';
      costRoaming(() => context.roaming.calculateCharged(session, pricingFacts(session), match.evse));
    } else {
      side = 'msp';
      const resolved = resolve(context, session);
      const { admin } = resolved.subscription;
      costRoaming(() => context.roaming.calculate(session, pricingFacts(session), admin.id, admin.currency));
      batch.results.push(price(em, context, session, resolved, outcome));
    }
    if (match) batch.reimbursed.push(reimbursedSession(session, match, drafts));
  } catch (error) {
    batch.dropouts.push({ outcome, side, evseUid: side === 'cpo' ? (session.evse_uid ?? session.evse_id) : null, ...dropoutOf(error, session.id) });
  }
}
