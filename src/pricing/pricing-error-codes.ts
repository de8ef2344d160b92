// The service error codes pricing may meet (price-session.ts, money, rule scripts). A caller that
// turns a failed pricing into a drop-out keeps these codes as its reason (the batch's MSP side as
// they are, reimbursement as `reimbursement_<code>`); any other error is a failure of its own.
import type { ErrorCode } from '../platform/error-codes.ts';

export const PRICING_ERROR_CODES = ['invalid_input', 'rule_script_failed', 'vat_rate_missing'] as const satisfies readonly ErrorCode[];
export type PricingErrorCode = (typeof PRICING_ERROR_CODES)[number];

const CODES: readonly string[] = PRICING_ERROR_CODES;

export function isPricingErrorCode(code: string): code is PricingErrorCode {
  return CODES.includes(code);
}
