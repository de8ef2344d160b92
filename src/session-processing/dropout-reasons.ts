// The reasons a session drops out for: one closed list, the values of a drop-out case's `reason`
// and of the `reason` filter of GET /msp-dropout-case, /cpo-dropout-case and GraphQL dropoutCases
// (an unknown value is 400 there, shared decisions "Running the service"). Every writer of a
// drop-out names one of these (the failures of session processing, reimbursement and roaming are
// typed by DropoutReason); a service error met while pricing keeps its code when it is listed
// here, else it is `pricing_failed` (or `reimbursement_failed` while reimbursing).
import type { ErrorCode } from '../platform/error-codes.ts';
import { VALIDITY_CHECKS, type ValidityCheck } from '../sessions/validity-checks.ts';

/** Service error codes pricing may meet (price-session.ts, money, rule scripts), kept as the reason. */
const PRICING_ERROR_CODES = ['invalid_input', 'rule_script_failed', 'vat_rate_missing'] as const satisfies readonly ErrorCode[];
type PricingErrorCode = (typeof PRICING_ERROR_CODES)[number];

const NAMED = [
  // Matching a CPO session (src/cpo/match-session.ts), after its retries
  'evse_not_found', 'location_not_found', 'connector_not_found',
  // An EVSE being configured (dropout_all_chargesessions)
  'evse_dropout_all_chargesessions',
  // Token resolution and pricing (src/session-processing/process-sessions.service.ts)
  'unknown_token', 'no_valid_subscription', 'rate_plan_missing', 'currency_mismatch', 'rate_plan_version_missing',
  'historical_tariff_invalid', 'historical_tariff_currency', 'pricing_failed',
  // Reimbursement (src/cpo/reimburse-session.ts, customer-reimbursement-vat.ts)
  'reimbursement_vat_unknown', 'reimbursement_arrangement_missing', 'multiple_reimbursement_arrangements',
  'reimbursement_amount_missing', 'reimbursement_input_missing', 'reimbursement_plan_missing', 'reimbursement_failed',
  // Roaming costs (src/roaming/)
  'roaming_cost_failed', 'roaming_agreement_missing', 'multiple_roaming_agreements', 'roaming_connection_unknown',
] as const;

export type DropoutReason =
  | `validity_${ValidityCheck}`
  | (typeof NAMED)[number]
  | PricingErrorCode
  | `reimbursement_${PricingErrorCode}`;

export const DROPOUT_REASONS: readonly DropoutReason[] = [
  ...VALIDITY_CHECKS.map((check) => `validity_${check}` as const),
  ...NAMED,
  ...PRICING_ERROR_CODES,
  ...PRICING_ERROR_CODES.map((code) => `reimbursement_${code}` as const),
].filter((reason, i, all) => all.indexOf(reason) === i).sort();

const PRICING_CODES: readonly string[] = PRICING_ERROR_CODES;

/** The reason of a service error met while pricing a session (`reimbursement`: while reimbursing it). */
export function dropoutReasonOfError(code: string, reimbursement = false): DropoutReason {
  if (!PRICING_CODES.includes(code)) return reimbursement ? 'reimbursement_failed' : 'pricing_failed';
  return (reimbursement ? `reimbursement_${code}` : code) as DropoutReason;
}
