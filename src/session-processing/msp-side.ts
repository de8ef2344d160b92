// The MSP side of a session: its token resolves to a subscription (src/msp/resolve-token.ts), the
// subscription's plan names the rate plan whose version valid at the start prices it
// (src/pricing/price-session.ts) with the VAT rate of the session's country valid then (or the
// EVSE owner's reimbursement VAT when the plan says so); an OCPI historical_tariff gives the CPO
// cost when the session states none; credit pays what the balance allows
// (src/msp/monetary-credit.service.ts). The answer is the pricing result's row (next version).
import { normalize } from '../money/decimal.ts';
import type { Em } from '../platform/orm.ts';
import { priceSession, ruleFor } from '../pricing/price-session.ts';
import type { VatKind, VatRate } from '../pricing/vat-rate.entity.ts';
import { labelled, totalsOf } from '../sessions/session-subtotals.ts';
import type { BatchContext, Resolved } from './batch-context.ts';
import { pricingFacts, type ClaimedSession } from './claim-batch.ts';
import { Dropped } from './dropout-reasons.ts';
import { cpoCostFromTariff } from './historical-tariff.ts';
import type { SessionOutcome } from './record-outcomes.ts';

/** The session's token and subscription; their absence is its drop-out. */
export function resolve(context: BatchContext, session: ClaimedSession): Resolved {
  const { token, subscription } = context.resolutionOf(session);
  if (!token) throw new Dropped('unknown_token', `no token ${session.evco_id}`);
  if (!subscription) {
    throw new Dropped('no_valid_subscription', `token ${token.evcoId} has no valid link to a valid subscription at ${session.start_at.toISOString()}`);
  }
  return { token, subscription };
}

/**
 * A session's reported amounts are read in its administration's currency (the cost a rule script
 * sees, the reported roaming cost): one stating another currency (an OCPI CDR's) drops out, whenever
 * it is priced, rather than be read as that currency. There is no conversion.
 */
export function checkReportedCurrency(session: ClaimedSession, admin: { id: string; currency: string }): void {
  if (session.reported_currency !== null && session.reported_currency !== admin.currency) {
    throw new Dropped('currency_mismatch', `the session's amounts are in ${session.reported_currency}, administration ${admin.id} bills in ${admin.currency}`,
      `reported ${session.reported_currency}`);
  }
}

function costFromTariff(session: ClaimedSession, currency: string) {
  let cost: ReturnType<typeof cpoCostFromTariff>;
  try {
    cost = cpoCostFromTariff(session.historical_tariff!, {
      start: session.start_at, end: session.end_at, energyKwh: session.energy_kwh, idleSeconds: session.idle_seconds,
      timeZone: session.time_zone, chargePeriods: session.charge_periods,
    });
  } catch (error) {
    throw new Dropped('historical_tariff_invalid', `the historical_tariff cannot be evaluated: ${(error as Error).message}`);
  }
  if (cost.currency !== currency) {
    throw new Dropped('historical_tariff_currency', `the historical_tariff is in ${cost.currency}, the rate plan in ${currency}`, cost.currency);
  }
  return cost;
}

/** Prices the session and pays it with credit; the pricing result's row (its id given when it is written: record-outcomes.ts). */
export function price(em: Em, context: BatchContext, session: ClaimedSession, r: Resolved, outcome: SessionOutcome): Record<string, unknown> {
  const { subscription, token } = r;
  const plan = subscription.plan;
  const admin = subscription.admin;
  if (!plan.ratePlanId) throw new Dropped('rate_plan_missing', `subscription plan ${plan.name} has no rate plan`, plan.id);
  const ratePlan = context.ratePlan(plan.ratePlanId);
  if (!ratePlan) throw new Dropped('rate_plan_missing', `rate plan ${plan.ratePlanId} does not exist`, plan.id);
  if (ratePlan.currency !== admin.currency) {
    throw new Dropped('currency_mismatch', `rate plan ${ratePlan.name} is in ${ratePlan.currency}, administration ${admin.id} in ${admin.currency}`, ratePlan.id);
  }
  const version = context.versionAt(ratePlan.id, session.start_at);
  if (!version) throw new Dropped('rate_plan_version_missing', `rate plan ${ratePlan.name} has no version valid at ${session.start_at.toISOString()}`, ratePlan.id);
  const facts = pricingFacts(session);
  const tariffCost = facts.cpoCostExclVat === undefined && session.historical_tariff ? costFromTariff(session, ratePlan.currency) : null;
  if (tariffCost) facts.cpoCostExclVat = tariffCost.exclVat;
  const versionInput = { ...version.definition, id: version.id, validFrom: version.validFrom };
  const reimbursementVat = context.reimbursementVat(session);
  if (reimbursementVat?.kind === 'dropout') throw new Dropped(reimbursementVat.reason, reimbursementVat.explanation, reimbursementVat.evseUid);
  // An owner exempt by its reimbursement VAT makes the session exempt: every line, also one whose rate names its own vat_kind.
  const exempt = reimbursementVat?.kind === 'exempt';
  const kind: VatKind = exempt ? 'exempt' : ruleFor(versionInput, facts).rule?.vat_kind ?? 'standard';
  const vatRates: VatRate[] = [];
  const vatFor = (wanted: VatKind) => {
    if (exempt) return { percent: '0.00', kind: 'exempt' as const, country: session.country };
    if (wanted === 'exempt' || wanted === 'reverse_charge') return { percent: '0.00', kind: wanted, country: session.country };
    const rate = context.vatRateAt(session.country, wanted, session.start_at);
    if (!rate) throw new Dropped('vat_rate_missing', `no ${wanted} VAT rate of ${session.country} is valid at ${session.start_at.toISOString()}`, `${session.country}:${wanted}`);
    vatRates.push(rate);
    return { percent: normalize(rate.percentage), kind: wanted, country: session.country };
  };
  const result = priceSession({ version: versionInput, session: facts, vat: vatFor(kind), vatFor });
  const explanation = [...result.explanation];
  if (tariffCost) explanation.push(tariffCost.explanation);
  for (const rate of new Set(vatRates)) explanation.push(`VAT rate ${rate.id} (${rate.country} ${rate.vatKind}, valid from ${rate.validFrom.toISOString()})`);
  if (reimbursementVat) explanation.push(`customer reimbursement VAT (plan property): ${reimbursementVat.explanation}`);

  const paid = context.credit.pay(em, session.id, subscription.id, labelled(result.subtotals), plan.creditExcludedComponents ?? [], `charge session ${session.session_id}`);
  if (paid.explanation) explanation.push(paid.explanation);
  const totals = totalsOf(paid.subtotals);
  outcome.pricing_version = session.pricing_version + 1;
  return {
    session_id: session.id, version: outcome.pricing_version, admin_id: admin.id, customer_id: subscription.customer.id,
    subscription_id: subscription.id, subscription_external_reference: subscription.externalReference ?? null, token_evco_id: token.evcoId,
    currency: ratePlan.currency, rate_plan_id: ratePlan.id, rate_plan_version_id: version.id, rule: result.rule, subtotals: paid.subtotals,
    total_excl_vat: totals.total_excl_vat, total_vat: totals.total_vat, total_incl_vat: totals.total_incl_vat, credit_used: paid.used, annotations: result.annotations, explanation,
  };
}
