import { normalize } from '../../src/money/decimal.ts';
import type { ChargeSessionData, PricingResultData } from '../../src/sessions/charge-session.queries.ts';
import type { ProgressRow } from '../../src/sessions/session-progress.queries.ts';
import type { IngestedSession } from '../../src/sessions/session-submission.ts';
import type { DropoutCaseData } from '../../src/sessions/dropout-case.queries.ts';
import { cpoSessionIdOf, reportedField as field, reportedRoamingAmounts } from '../../src/sessions/session-reported.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { amountDifference } from '../../src/roaming/roaming-cost.ts';
import type { Infer } from '../rails/shape.ts';
import { reportedAddress, reportedChargePeriods } from './reported-shapes.ts';
import type {
  chargeSessionShape, cpoChargeSessionShape, cpoDropoutCaseShape, dropoutCaseShape, originalSessionShape, pricingResultShape, sessionProgressShape,
  sessionReceiptShape,
} from './session-shapes.ts';

/** Reported fields as the body schema (session-body.ts) checked them. */
const text = (s: ChargeSessionData, name: string) => field(s, name) as string | null;

export function serializeReceipt(stored: IngestedSession): Infer<typeof sessionReceiptShape> {
  return { id: stored.id, status: stored.status, received_at: stored.receivedAt.toISOString(), duplicate: stored.duplicate };
}

export function serializeChargeSession(s: ChargeSessionData): Infer<typeof chargeSessionShape> {
  const connectorFormat = field(s, 'connector_format');
  return {
    id: s.id,
    source: s.source,
    session_id: s.sessionId,
    status: s.status,
    admin_id: s.admin?.id ?? null,
    customer_id: s.customerId ?? null,
    subscription_id: s.subscriptionId ?? null,
    token_evco_id: s.evcoId,
    cpo_id: s.cpoId ?? null,
    cpo_session_id: cpoSessionIdOf(s),
    cpo_cdr_id: text(s, 'cpo_cdr_id'),
    connector_standard: text(s, 'connector_standard'),
    connector_format: typeof connectorFormat === 'string' ? connectorFormat.toLowerCase() : null,
    time_zone: s.timeZone,
    address: reportedAddress(s.payload),
    evse_id: s.evseId ?? null,
    evse_uid: s.evseUid ?? null,
    start_date_time: iso(s.startAt),
    end_date_time: iso(s.endAt),
    total_energy_kwh: normalize(s.energyKwh),
    total_idle_seconds: s.idleSeconds,
    ...reportedRoamingAmounts(s),
    calculated_roaming_amount_excl_vat: s.roamingCostExclVat ?? null,
    calculated_roaming_amount_incl_vat: s.roamingCostInclVat ?? null,
    roaming_agreement_id: s.roamingAgreementId ?? null,
    remark: text(s, 'remark'),
    received_at: iso(s.receivedAt),
    pricing_version: s.pricingVersion,
    dropout_case_id: s.dropoutCase?.id ?? null,
    dropout_reason: s.dropoutReason ?? null,
    dropout_message: s.dropoutMessage ?? null,
    updated_at: iso(s.updatedAt),
  };
}

export function serializeCpoChargeSession(s: ChargeSessionData): Infer<typeof cpoChargeSessionShape> {
  const session = serializeChargeSession(s);
  return {
    ...session,
    tariff_code: text(s, 'tariff_code'),
    charge_periods: reportedChargePeriods(field(s, 'charge_periods')),
    total_reimbursement_amount_excl_vat: s.reimbursementExclVat ?? null,
    total_sales_amount_excl_vat: session.total_roaming_amount_excl_vat,
    roaming_partner_id: s.roamingPartnerId ?? null,
    roaming_amount_difference: s.roamingCostExclVat && s.roamingCostSource !== 'reported'
      ? amountDifference(session.total_roaming_amount_excl_vat, s.roamingCostExclVat) : null,
    location_id: s.locationId ?? null,
    connector_id: s.connectorId ?? null,
    match_attempts: s.matchAttempts,
    next_match_attempt_at: s.status === 'received' ? iso(s.retryAt) : null,
  };
}

export function serializeOriginal(s: ChargeSessionData): Infer<typeof originalSessionShape> {
  return { id: s.id, source: s.source, received_at: iso(s.receivedAt), body: s.payload as Infer<typeof originalSessionShape>['body'] };
}

export function serializeProgress(row: ProgressRow): Infer<typeof sessionProgressShape> {
  return {
    id: row.id, session_status: row.session_status as Infer<typeof sessionProgressShape>['session_status'], total_energy_kwh: normalize(row.total_energy_kwh),
    last_update: iso(new Date(row.last_update)), evse_id: row.evse_id ?? null,
  };
}

export function serializePricingResult(r: PricingResultData): Infer<typeof pricingResultShape> {
  return {
    id: r.id,
    charge_session_id: r.session.id,
    version: r.version,
    admin_id: r.admin.id,
    customer_id: r.customerId,
    currency_code: r.currency,
    token_evco_id: r.tokenEvcoId,
    subscription_id: r.subscriptionId,
    subscription_external_reference: r.subscriptionExternalReference ?? null,
    roaming_agreement: (r.roamingAgreement ?? null) as Infer<typeof pricingResultShape>['roaming_agreement'],
    cpo_session_id: r.cpoSessionId,
    rate_plan_id: r.ratePlanId,
    rate_plan_version_id: r.ratePlanVersionId,
    rule: r.rule,
    subtotals: r.subtotals,
    total_excl_vat: normalize(r.totalExclVat),
    total_vat: normalize(r.totalVat),
    total_incl_vat: normalize(r.totalInclVat),
    monetary_credit_used: normalize(r.creditUsed),
    annotations: r.annotations ?? {},
    explanation: r.explanation,
    created_at: iso(r.createdAt),
  };
}

export function serializeDropoutCase(c: DropoutCaseData): Infer<typeof dropoutCaseShape> {
  return {
    id: c.id,
    admin_id: c.admin?.id ?? null,
    reason: c.reason,
    message: c.message,
    status: c.status,
    session_count: c.sessionCount,
    resolution: c.resolution ?? null,
    resolved_at: iso(c.resolvedAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function serializeCpoDropoutCase(c: DropoutCaseData): Infer<typeof cpoDropoutCaseShape> {
  return { ...serializeDropoutCase(c), evse_uid: c.evseUid ?? null };
}
