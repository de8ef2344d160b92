// The reasons a session drops out for: one closed list, the values of a drop-out case's `reason`
// and of the `reason` filter of GET /msp-dropout-case, /cpo-dropout-case and GraphQL dropoutCases
// (an unknown value is 400 there, shared decisions "Running the service"). Each area names the
// reasons of its own failures beside the rule that fails; this list composes them with the
// pipeline's own (token resolution and MSP pricing), so every writer of a drop-out names one of
// these. A service error met while pricing keeps its code when pricing may meet it
// (src/pricing/pricing-error-codes.ts), else it is `pricing_failed` (`reimbursement_…` while reimbursing).
import { MATCH_FAILURE_REASONS, type MatchFailureReason } from '../cpo/match-session.ts';
import { REIMBURSEMENT_FAILURE_REASONS, type ReimbursementFailureReason } from '../cpo/reimburse-session.ts';
import { REIMBURSEMENT_VAT_REASONS, type ReimbursementVatReason } from '../cpo/customer-reimbursement-vat.ts';
import { DomainError } from '../platform/errors.ts';
import { storableText } from '../platform/input-limits.ts';
import { logger } from '../platform/log.ts';
import { isPricingErrorCode, PRICING_ERROR_CODES, type PricingErrorCode } from '../pricing/pricing-error-codes.ts';
import { ROAMING_FAILURE_REASONS, type RoamingFailureReason } from '../roaming/roaming-cost.ts';
import { VALIDITY_REASONS, type ValidityReason } from '../sessions/validity-checks.ts';

/**
 * The pipeline's own: an EVSE being configured (cpo-side.ts), a charge already priced as a CPO
 * session (own-charge.ts), token resolution and pricing (msp-side.ts).
 */
const PROCESSING_REASONS = [
  'evse_dropout_all_chargesessions', 'charged_as_cpo_session',
  'unknown_token', 'no_valid_subscription', 'rate_plan_missing', 'currency_mismatch', 'rate_plan_version_missing',
  'historical_tariff_invalid', 'historical_tariff_currency', 'pricing_failed',
] as const;

export type DropoutReason =
  | ValidityReason
  | MatchFailureReason
  | ReimbursementFailureReason
  | ReimbursementVatReason
  | RoamingFailureReason
  | (typeof PROCESSING_REASONS)[number]
  | PricingErrorCode;

export const DROPOUT_REASONS: readonly DropoutReason[] = [
  ...VALIDITY_REASONS,
  ...MATCH_FAILURE_REASONS,
  ...REIMBURSEMENT_FAILURE_REASONS,
  ...REIMBURSEMENT_VAT_REASONS,
  ...ROAMING_FAILURE_REASONS,
  ...PROCESSING_REASONS,
  ...PRICING_ERROR_CODES,
].filter((reason, i, all) => all.indexOf(reason) === i).sort();

/** A step's failure that drops the session out: its reason, message and the detail that groups its case. */
export class Dropped extends Error {
  readonly reason: DropoutReason;
  readonly detail: string;
  constructor(reason: DropoutReason, message: string, detail = '') {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

/** The longest drop-out message kept (a script's thrown text can be megabytes). */
const MAX_MESSAGE = 2000;

/**
 * A failure met in the pipeline as a drop-out: a Dropped as it is, a service error by its code;
 * anything else (a fault met by this session alone: its steps read no database) is
 * `pricing_failed`, logged with its stack. Thrown on, it failed the whole batch at every retry, so
 * one session held up the processing of every other. The message is made storable.
 */
export function dropoutOf(error: unknown, sessionId: string): { reason: DropoutReason; message: string; detail?: string } {
  if (error instanceof Dropped) return { reason: error.reason, message: storableText(error.message, MAX_MESSAGE), detail: storableText(error.detail, 500) };
  if (error instanceof DomainError) return { reason: isPricingErrorCode(error.code) ? error.code : 'pricing_failed', message: storableText(error.message, MAX_MESSAGE) };
  logger().error({ err: error, session_id: sessionId }, `processing session ${sessionId} failed unexpectedly: it drops out (pricing_failed)`);
  return { reason: 'pricing_failed', message: storableText(`processing failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`, MAX_MESSAGE) };
}
