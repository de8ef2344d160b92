// GET /msp-charge-cost-calculation: prices a hypothetical session, stores nothing.
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { compareDecimal, multiplyDecimal } from '../money/decimal.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { priceSession, ruleFor, type PricingResult, type PricingSession } from '../pricing/price-session.ts';
import type { RatePlan } from '../pricing/rate-plan.entity.ts';
import { getRatePlan, ratePlanVersionAt } from '../pricing/rate-plan.service.ts';
import type { VatKind } from '../pricing/vat-rate.entity.ts';
import { vatRatesAt } from '../pricing/vat-rate.service.ts';
import { maxIdleSeconds } from '../pricing/max-idle-seconds.ts';

export interface CostCalculationInput {
  ratePlanId?: string;
  planId?: string;
  session: PricingSession;
  vatKind: VatKind;
}

export interface CostCalculation extends PricingResult {
  ratePlan: Data<RatePlan>;
  vatRateId: string | null;
}

async function ratePlanOf(em: Em, input: CostCalculationInput): Promise<RatePlan> {
  if ((input.ratePlanId === undefined) === (input.planId === undefined)) {
    throw new InvalidInputError('give exactly one of rate_plan_id and plan_id', { queryParam: 'rate_plan_id' });
  }
  if (input.ratePlanId !== undefined) return getRatePlan(em, { id: input.ratePlanId }, { queryParam: 'rate_plan_id' });
  const plan = isUuid(input.planId!) ? await em.findOne(SubscriptionPlan, { id: input.planId! }) : null;
  if (!plan) throw new NotFoundError('subscription plan', { queryParam: 'plan_id' });
  if (!plan.ratePlanId) throw new DomainError('rate_plan_missing', 'the subscription plan has no rate plan', { queryParam: 'plan_id' });
  return getRatePlan(em, { id: plan.ratePlanId }, { queryParam: 'plan_id' });
}

/** The version valid at the start, the rule's VAT kind (else the requested one) and its rate at the start. */
export async function calculateCost(em: Em, input: CostCalculationInput): Promise<CostCalculation> {
  const ratePlan = await ratePlanOf(em, input);
  const { session } = input;
  if (session.end.getTime() < session.start.getTime()) {
    throw new InvalidInputError('end_date_time must not be before start_date_time', { queryParam: 'end_date_time' });
  }
  // As a submitted session's total_idle_seconds (session-consistency.ts): no more parking than the session lasts.
  const maxSeconds = maxIdleSeconds(session.start, session.end);
  if (session.parkingMinutes !== undefined && compareDecimal(multiplyDecimal(session.parkingMinutes, '60'), String(maxSeconds)) > 0) {
    throw new InvalidInputError(`parking_minutes is more than the session lasts (${maxSeconds} s from its start to its end)`, { queryParam: 'parking_minutes' });
  }
  const version = await ratePlanVersionAt(em, ratePlan, session.start).catch((error) => {
    throw error instanceof DomainError ? new DomainError(error.code, error.message, { queryParam: 'start_date_time' }) : error;
  });
  const versionInput = { ...version.definition, id: version.id, validFrom: version.validFrom };
  const vatKind = ruleFor(versionInput, session).rule?.vat_kind ?? input.vatKind;
  const rates = await vatRatesAt(em, session.country, session.start);
  const vatFor = (kind: VatKind) => {
    const rate = rates.get(kind);
    if (!rate) throw new DomainError('vat_rate_missing', `no ${kind} VAT rate of ${session.country.toUpperCase()} is valid at ${session.start.toISOString()}`, { queryParam: 'country' });
    return { percent: rate.percentage, kind: rate.vatKind, country: rate.country };
  };
  const vat = vatFor(vatKind);
  const result = priceSession({ version: versionInput, session, vat, vatFor });
  return { ...result, ratePlan: plainData(ratePlan), vatRateId: rates.get(vatKind)?.id ?? null };
}
