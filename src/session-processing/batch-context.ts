// What a claimed batch reads before its sessions go through the pipeline, with one query per kind
// (none for a kind the batch does not need): token -> link -> subscription -> plan
// (src/msp/resolve-token.ts), the plans' rate plans and versions, the VAT rates of the sessions'
// countries, the local EVSEs (local-evse.ts), the charges of our driver at our EVSE that reach us
// twice (own-charge.ts), what reimbursement reads (src/cpo/reimbursement-context.ts), the credit
// the batch may move (locked, src/msp/monetary-credit.service.ts), the owners' reimbursement VAT
// for plans that use it, and the roaming step's rows (roaming-costs.ts).
import { decideReimbursementVat, reimbursementLinksOf, type ReimbursementVatDecision } from '../cpo/customer-reimbursement-vat.ts';
import type { Evse } from '../cpo/evse.entity.ts';
import { matchRetryPolicyFromEnv } from '../cpo/match-session.ts';
import { reimbursementContext } from '../cpo/reimbursement-context.ts';
import { lockBatchCredit } from '../msp/monetary-credit.service.ts';
import type { ResolvedSubscription, ResolvedToken, TokenResolution } from '../msp/resolve-token.ts';
import { resolveTokensForPricing } from '../msp/correction-lock.ts';
import type { Em } from '../platform/orm.ts';
import { isValidAt } from '../platform/validity.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import { VatRate, type VatKind } from '../pricing/vat-rate.entity.ts';
import { thresholdsFromEnv } from '../sessions/validity-checks.ts';
import type { ClaimedSession } from './claim-batch.ts';
import { loadLocalEvses } from './local-evse.ts';
import { loadOwnCharges } from './own-charge.ts';
import { roamingBatch } from './roaming-costs.ts';
import { versionAt } from '../contracts/versions.ts';

/** A session whose token resolved to a subscription. */
export interface Resolved { token: ResolvedToken; subscription: ResolvedSubscription }

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item); else map.set(k, [item]);
  }
  return map;
}

const NOT_OURS: TokenResolution = { token: null, currentLinks: [], subscription: null };

function submitterSees(session: ClaimedSession, resolution: TokenResolution): boolean {
  const ids = session.submitter_admin_ids;
  if (ids === null || resolution.token === null) return true;
  const admin = resolution.token.currentAdminId.toLowerCase();
  return ids.some((id) => id.toLowerCase() === admin);
}

export async function loadBatchContext(em: Em, sessions: ClaimedSession[]) {
  const limits = thresholdsFromEnv();
  // Held against corrections to the commit (src/msp/correction-lock.ts).
  const resolutions = await resolveTokensForPricing(em, sessions.map((s) => ({ evcoId: s.evco_id, at: s.start_at })));
  // A token of an administration its submitter is not limited to is not one of ours for the session:
  // a limited credential charges no other administration's customer (a CPO session at its EVSE is
  // then processed on the CPO side only; a session of its own drops out as of an unknown token).
  const resolutionOf = new Map(sessions.map((s, i) => [s.id, submitterSees(s, resolutions[i]) ? resolutions[i] : NOT_OURS]));
  const planIds = [...new Set(resolutions.map((r) => r.subscription?.plan.ratePlanId).filter((id): id is string => !!id))];
  const ratePlans = new Map((planIds.length ? await em.find(RatePlan, { id: { $in: planIds } }) : []).map((p) => [p.id, p]));
  const versions = groupBy(planIds.length ? await em.find(RatePlanVersion, { ratePlan: { $in: planIds } }, { orderBy: { validFrom: 'desc' } }) : [],
    (v) => v.ratePlan.id);
  const countries = [...new Set(sessions.map((s) => s.country))];
  const vatRates = groupBy(await em.find(VatRate, { country: { $in: countries } }), (r) => `${r.country}:${r.vatKind}`);
  const vatRateAt = (country: string, kind: VatKind, at: Date) => vatRates.get(`${country}:${kind}`)?.find((r) => isValidAt(r, at));
  const { localEvse } = await loadLocalEvses(em, sessions);
  // The EVSEs CPO sessions are matched to (by uid, or by the EVSE ID's holder at the start), whose links reimburse.
  const reimbursement = await reimbursementContext(em, [...new Set(sessions.filter((s) => s.source === 'cpo_charge_session')
    .map(localEvse).filter((e): e is Evse => !!e))], vatRateAt);

  const resolved = new Map<string, Resolved>();
  for (const session of sessions) {
    const { token, subscription } = resolutionOf.get(session.id)!;
    if (token && subscription) resolved.set(session.id, { token, subscription });
  }
  // Before the credit's locks: the own-charge locks are a batch's first (own-charge.ts).
  const ownCharges = await loadOwnCharges(em, sessions, (s) => resolved.get(s.id), localEvse);
  const credit = await lockBatchCredit(em, sessions.map((s) => ({ id: s.id, subscription: resolved.get(s.id)?.subscription ?? null, creditMoved: s.credit_moved })));

  // The plan property "Use Customer Reimbursement VAT": the owner of the local EVSE decides the VAT.
  const vatDecisions = new Map<string, ReimbursementVatDecision>();
  const usesOwnerVat = sessions.filter((s) => resolved.get(s.id)?.subscription.plan.useCustomerReimbursementVat);
  const ownerLinks = await reimbursementLinksOf(em, [...new Set(usesOwnerVat.map(localEvse).filter((e): e is Evse => !!e))]);
  for (const session of usesOwnerVat) vatDecisions.set(session.id, decideReimbursementVat(localEvse(session) ?? null, ownerLinks, session.start_at,
    resolved.get(session.id)!.subscription.admin.id));

  return {
    limits,
    localEvse,
    ownCharges,
    resolutionOf: (session: ClaimedSession) => resolutionOf.get(session.id)!,
    /** The session's token and subscription; undefined when either is missing (the MSP side drops it out). */
    resolved: (session: ClaimedSession) => resolved.get(session.id),
    ratePlan: (id: string) => ratePlans.get(id),
    versionAt: (ratePlanId: string, at: Date) => versionAt(versions.get(ratePlanId) ?? [], at),
    vatRateAt,
    reimbursement,
    credit,
    reimbursementVat: (session: ClaimedSession) => vatDecisions.get(session.id),
    roaming: await roamingBatch(em, sessions, vatRateAt),
    retryPolicy: matchRetryPolicyFromEnv(),
    now: new Date(),
  };
}

export type BatchContext = Awaited<ReturnType<typeof loadBatchContext>>;
