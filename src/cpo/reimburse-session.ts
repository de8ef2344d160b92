// The reimbursement of one CPO session (spec, "Reimbursement"): every arrangement linked to the
// EVSE and valid at the session start reimburses its customer, the EVSE owner. A plan in mode
// `cpms_supplied` takes the amount the CPMS reported; a `calculated` plan prices the session with
// the shared pricing core (src/pricing/price-session.ts) from the calculation inputs in effect
// (calculation-inputs.ts: the arrangement's input wins over the plan's), custom variables and the
// plan's script included. The owner's Reimbursement VAT property decides the VAT: Applies, the
// standard rate of the session's country; Exempt, exempt at 0 %; Unknown, a drop-out.
import { normalize } from '../money/decimal.ts';
import { DomainError } from '../platform/errors.ts';
import { priceSession, type PricingSession, type PricingVat, type Subtotal } from '../pricing/price-session.ts';
import { isPricingErrorCode, PRICING_ERROR_CODES, type PricingErrorCode } from '../pricing/pricing-error-codes.ts';
import type { RateRule, Rates } from '../pricing/rate-plan-definition.ts';
import type { VatRate } from '../pricing/vat-rate.entity.ts';
import { effectiveInputs, type InputValue } from './calculation-inputs.ts';
import type { Evse } from './evse.entity.ts';
import type { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import type { ReimbursementLink } from './reimbursement-link.entity.ts';
import { REIMBURSEMENT_COMPONENTS } from './reimbursement-plan.entity.ts';

const NAMED_FAILURES = [
  'reimbursement_vat_unknown', 'reimbursement_arrangement_missing', 'reimbursement_amount_missing', 'reimbursement_input_missing',
  'reimbursement_plan_missing', 'reimbursement_failed', 'vat_rate_missing',
] as const;

/** The drop-out reasons of reimbursement: its own, and a pricing error met while reimbursing as `reimbursement_<code>` (else `reimbursement_failed`). */
export type ReimbursementFailureReason = (typeof NAMED_FAILURES)[number] | `reimbursement_${PricingErrorCode}`;
export const REIMBURSEMENT_FAILURE_REASONS: readonly ReimbursementFailureReason[] = [
  ...NAMED_FAILURES, ...PRICING_ERROR_CODES.map((code) => `reimbursement_${code}` as const),
];

function reasonOfError(code: string): ReimbursementFailureReason {
  return isPricingErrorCode(code) ? `reimbursement_${code}` : 'reimbursement_failed';
}

export class ReimbursementFailure extends Error {
  readonly reason: ReimbursementFailureReason;
  constructor(reason: ReimbursementFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface ReimbursementContext {
  /** Non-defunct links of the EVSE with arrangement, its customer, plan and administration loaded. */
  linksOf(evse: Evse): ReimbursementLink[];
  inputsOf(owner: 'plan' | 'arrangement', ownerId: string): InputValue[];
  vatRateAt(country: string, kind: 'standard', at: Date): VatRate | undefined;
}

export interface ReimbursementDraft {
  arrangement: ReimbursementArrangement;
  mode: string;
  currency: string;
  subtotals: Subtotal[];
  totalExclVat: string;
  totalVat: string;
  totalInclVat: string;
  vat: PricingVat;
  explanation: string[];
}

/** Without a script, each custom variable of a plan with the `custom` component is a per-session amount. */
const CUSTOM_VARIABLES_SCRIPT = `return { subtotals: Object.keys(input.variables).sort().map(function (name) {
  return { component: name, label: name, amount_excl_vat: input.variables[name] }; }) };`;

function vatOf(context: ReimbursementContext, arrangement: ReimbursementArrangement, session: PricingSession): PricingVat {
  const owner = arrangement.customer;
  if (owner.reimbursementVat === 'Exempt') return { kind: 'exempt', percent: '0', country: session.country };
  if (owner.reimbursementVat !== 'Applies') {
    throw new ReimbursementFailure('reimbursement_vat_unknown',
      `the reimbursement VAT of customer ${owner.id} (arrangement ${arrangement.id}) is Unknown: set it to Applies or Exempt`);
  }
  const rate = context.vatRateAt(session.country, 'standard', session.start);
  if (!rate) throw new ReimbursementFailure('vat_rate_missing', `no standard VAT rate of ${session.country} is valid at ${session.start.toISOString()}`);
  return { kind: 'standard', percent: normalize(rate.percentage), country: session.country };
}

function definitionOf(context: ReimbursementContext, arrangement: ReimbursementArrangement, session: PricingSession, cpmsAmount: string | null) {
  const plan = arrangement.plan!;
  if (plan.mode === 'cpms_supplied') {
    if (cpmsAmount === null) {
      throw new ReimbursementFailure('reimbursement_amount_missing', `plan ${plan.name} takes the reimbursement from the CPMS and the session reports none`);
    }
    return { rates: { flat: { price: cpmsAmount } } as Rates, rules: [] as RateRule[], variables: {}, from: `amount supplied by the CPMS: ${cpmsAmount}` };
  }
  const inputs = effectiveInputs(context.inputsOf('plan', plan.id), context.inputsOf('arrangement', arrangement.id), session.start);
  const rates: Rates = {};
  for (const component of REIMBURSEMENT_COMPONENTS) {
    if (!plan.components.includes(component)) continue;
    const input = inputs.get(component);
    if (!input) {
      throw new ReimbursementFailure('reimbursement_input_missing',
        `no ${component} input of plan ${plan.name} or arrangement ${arrangement.id} is in effect at ${session.start.toISOString()}`);
    }
    rates[component] = { price: input.value };
  }
  const variables: Record<string, string> = {};
  for (const [key, input] of inputs) if (key.startsWith('custom:')) variables[input.varName] = normalize(input.value);
  const script = plan.script ?? (plan.components.includes('custom') ? CUSTOM_VARIABLES_SCRIPT : null);
  const rules: RateRule[] = script ? [{ name: `reimbursement plan ${plan.name}`, match: {}, rates: {}, script }] : [];
  const from = [...inputs.values()].map((i) => `${i.componentType === 'custom' ? `custom ${i.varName}` : i.componentType} ${normalize(i.value)} from ${i.validFrom.toISOString()}`);
  return { rates, rules, variables, from: `calculation inputs in effect: ${from.join('; ') || 'none'}` };
}

/** The reimbursements of a matched session; a ReimbursementFailure when one cannot be calculated. */
export function reimburseSession(context: ReimbursementContext, evse: Evse, session: PricingSession, cpmsAmount: string | null): ReimbursementDraft[] {
  const links = context.linksOf(evse).filter((link) => link.isUsableAt(session.start));
  const arrangements = [...new Map(links.map((l) => [l.arrangement.id, l.arrangement])).values()];
  if (arrangements.length === 0 && evse.reimbursementMandatory) {
    throw new ReimbursementFailure('reimbursement_arrangement_missing',
      `EVSE ${evse.evseUid} requires a reimbursement arrangement and has none valid at ${session.start.toISOString()}`);
  }
  // The CPMS reports one amount for the session: two arrangements taking it would pay it twice.
  const supplied = arrangements.filter((arrangement) => arrangement.plan?.mode === 'cpms_supplied');
  if (supplied.length > 1) {
    throw new ReimbursementFailure('reimbursement_failed', `arrangements ${supplied.map((a) => a.id).join(', ')} of EVSE ${evse.evseUid} `
      + 'each take the amount the CPMS reported, which is paid once: end all but one, then retry the case');
  }
  return arrangements.map((arrangement) => {
    if (!arrangement.plan) throw new ReimbursementFailure('reimbursement_plan_missing', `arrangement ${arrangement.id} has no reimbursement plan`);
    const definition = definitionOf(context, arrangement, session, cpmsAmount);
    const vat = vatOf(context, arrangement, session);
    try {
      const result = priceSession({
        version: { rates: definition.rates, rules: definition.rules, id: arrangement.plan.id, validFrom: arrangement.validFrom },
        session: { ...session, variables: definition.variables }, vat,
      });
      return {
        arrangement, mode: arrangement.plan.mode, currency: arrangement.admin.currency, subtotals: result.subtotals,
        totalExclVat: result.total_excl_vat, totalVat: result.total_vat, totalInclVat: result.total_incl_vat, vat,
        explanation: [`arrangement ${arrangement.id}, plan ${arrangement.plan.name} (${arrangement.plan.mode})`, definition.from,
          `reimbursement VAT of customer ${arrangement.customer.id}: ${arrangement.customer.reimbursementVat}`, ...result.explanation.slice(1)],
      };
    } catch (error) {
      if (error instanceof DomainError) throw new ReimbursementFailure(reasonOfError(error.code), error.message);
      throw error;
    }
  });
}
