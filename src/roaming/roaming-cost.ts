// What the CPO charges for one roaming session (spec "Roaming"), from, in this order: the OCPI
// `historical_tariff` the session carries, or the OCPI tariff the CPO published on the connection
// that the session's `tariff_code` names (the shared OCPI evaluator, src/pricing/ocpi/), else the
// rate plan of the agreement (the pricing core, src/pricing/price-session.ts), else the amount the
// CPO reported (`total_roaming_amount_excl_vat`). A provider-facilitated connection has no
// agreement: the reported amount is the cost. VAT: the agreement's VAT kind (standard without
// one) at the rate of the session's country valid at its start. Pure: the batch
// (src/session-processing/roaming-costs.ts) loads what it needs.
import { addCurrency, compareDecimal, mulDivToCurrency, normalize, roundToCurrency, subtractDecimal, sumCurrency, sumDecimal } from '../money/decimal.ts';
import { DomainError } from '../platform/errors.ts';
import type { OcpiCostLine } from '../pricing/ocpi/evaluate-tariff.ts';
import { priceSession, type PricingSession, type Subtotal } from '../pricing/price-session.ts';
import type { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import type { RatePlan } from '../pricing/rate-plan.entity.ts';
import type { VatKind, VatRate } from '../pricing/vat-rate.entity.ts';
import type { RoamingAgreement } from './roaming-agreement.entity.ts';
/** The drop-out reasons of a roaming cost that cannot be had. */
export const ROAMING_FAILURE_REASONS = [
  'roaming_cost_failed', 'roaming_agreement_missing', 'multiple_roaming_agreements', 'roaming_connection_unknown', 'vat_rate_missing',
] as const;
export type RoamingFailureReason = (typeof ROAMING_FAILURE_REASONS)[number];

export class RoamingFailure extends Error {
  readonly reason: RoamingFailureReason;
  readonly detail: string;
  constructor(reason: RoamingFailureReason, message: string, detail = '') {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

export type CostSource = 'historical_tariff' | 'ocpi_tariff' | 'rate_plan' | 'reported';

export interface RoamingSplit { flat: string; energy: string; time: string; reservation: string }

export interface RoamingCost {
  source: CostSource;
  currency: string;
  exclVat: string;
  vat: string;
  inclVat: string;
  vatKind: VatKind;
  vatPercent: string;
  split: RoamingSplit;
  explanation: string[];
}

export interface RoamingCostInput {
  session: PricingSession;
  /** The administration's currency: the cost is in it. */
  currency: string;
  agreement: RoamingAgreement | null;
  /**
   * The OCPI evaluation of the session's tariff (null without one); a thrown error when it cannot be
   * evaluated. `source`: the session's historical_tariff, or a tariff the CPO published (`name`: its id).
   */
  tariff: { source: 'historical_tariff' | 'ocpi_tariff'; name?: string; evaluate: () => { currency: string; exclVat: string; lines: OcpiCostLine[] } } | null;
  ratePlan: RatePlan | undefined;
  version: RatePlanVersion | undefined;
  reported: { exclVat: string | null; split: Partial<Record<keyof RoamingSplit, string | null>> };
  vatRate: (kind: VatKind) => VatRate | undefined;
}

const ZERO_SPLIT: RoamingSplit = { flat: '0.00', energy: '0.00', time: '0.00', reservation: '0.00' };

function splitOfTariff(lines: OcpiCostLine[]): RoamingSplit {
  const group = (line: OcpiCostLine): keyof RoamingSplit => line.reservation ? 'reservation'
    : line.dimension === 'FLAT' ? 'flat' : line.dimension === 'ENERGY' ? 'energy' : 'time';
  const sums: Record<keyof RoamingSplit, string[]> = { flat: [], energy: [], time: [], reservation: [] };
  for (const line of lines) sums[group(line)].push(line.amountExclVat);
  return {
    flat: roundToCurrency(sumDecimal(sums.flat)), energy: roundToCurrency(sumDecimal(sums.energy)),
    time: roundToCurrency(sumDecimal(sums.time)), reservation: roundToCurrency(sumDecimal(sums.reservation)),
  };
}

/** Rate plan lines: energy, time (charging and parking), everything else per session (flat, script lines, min/max adjustments). */
function splitOfSubtotals(subtotals: Subtotal[]): RoamingSplit {
  const group = (s: Subtotal): keyof RoamingSplit => s.kind === 'energy' ? 'energy' : s.kind === 'time' || s.kind === 'parking_time' ? 'time' : 'flat';
  const sums: Record<keyof RoamingSplit, string[]> = { flat: [], energy: [], time: [], reservation: [] };
  for (const s of subtotals) sums[group(s)].push(s.amount_excl_vat);
  return { flat: sumCurrency(sums.flat), energy: sumCurrency(sums.energy), time: sumCurrency(sums.time), reservation: '0.00' };
}

const tariffName = (input: RoamingCostInput) => (input.tariff?.source === 'ocpi_tariff'
  ? `OCPI tariff ${input.tariff.name} the CPO published` : 'OCPI historical_tariff');

function costExclVat(input: RoamingCostInput): { source: CostSource; exclVat: string; split: RoamingSplit; explanation: string } {
  const { agreement, session } = input;
  if (input.tariff) {
    let evaluated: ReturnType<NonNullable<RoamingCostInput['tariff']>['evaluate']>;
    try {
      evaluated = input.tariff.evaluate();
    } catch (error) {
      throw new RoamingFailure('roaming_cost_failed', `the ${tariffName(input)} cannot be evaluated: ${(error as Error).message}`, input.tariff.source);
    }
    if (evaluated.currency !== input.currency) {
      throw new RoamingFailure('roaming_cost_failed', `the ${tariffName(input)} is in ${evaluated.currency}, the administration in ${input.currency}`, 'currency');
    }
    return { source: input.tariff.source, exclVat: roundToCurrency(evaluated.exclVat), split: splitOfTariff(evaluated.lines),
      explanation: `roaming cost from the ${tariffName(input)}: ${roundToCurrency(evaluated.exclVat)} ${evaluated.currency} excl. VAT` };
  }
  if (agreement?.ratePlanId) {
    const { ratePlan, version } = input;
    if (!ratePlan) throw new RoamingFailure('roaming_cost_failed', `rate plan ${agreement.ratePlanId} of roaming agreement ${agreement.id} does not exist`, agreement.id);
    if (ratePlan.currency !== input.currency) {
      throw new RoamingFailure('roaming_cost_failed', `rate plan ${ratePlan.name} is in ${ratePlan.currency}, the administration in ${input.currency}`, agreement.id);
    }
    if (!version) {
      throw new RoamingFailure('roaming_cost_failed', `rate plan ${ratePlan.name} has no version valid at ${session.start.toISOString()}`, agreement.id);
    }
    try {
      // The VAT of the rate plan's lines is not used: the roaming VAT is applied to the total below.
      const result = priceSession({
        version: { ...version.definition, id: version.id, validFrom: version.validFrom },
        session, vat: { percent: '0', kind: 'exempt', country: session.country },
        vatFor: (kind) => ({ percent: '0', kind, country: session.country }),
      });
      return { source: 'rate_plan', exclVat: result.total_excl_vat, split: splitOfSubtotals(result.subtotals),
        explanation: `roaming cost from rate plan ${ratePlan.name} (version ${version.id}) of roaming agreement ${agreement.id}: ${result.total_excl_vat} excl. VAT` };
    } catch (error) {
      if (error instanceof DomainError) throw new RoamingFailure('roaming_cost_failed', `rate plan ${ratePlan.name}: ${error.message}`, agreement.id);
      throw error;
    }
  }
  const reported = input.reported.exclVat;
  if (reported === null) {
    throw new RoamingFailure('roaming_cost_failed', 'the session carries no historical_tariff and no total_roaming_amount_excl_vat'
      + (agreement ? `, and roaming agreement ${agreement.id} has no rate plan` : ''), agreement?.id ?? 'reported');
  }
  const part = (value: string | null | undefined) => (value ? roundToCurrency(value) : '0.00');
  return {
    source: 'reported', exclVat: roundToCurrency(reported),
    split: { ...ZERO_SPLIT, flat: part(input.reported.split.flat), energy: part(input.reported.split.energy), time: part(input.reported.split.time),
      reservation: part(input.reported.split.reservation) },
    explanation: `roaming cost as reported by the CPO: ${normalize(reported)} excl. VAT`,
  };
}

export function roamingCost(input: RoamingCostInput): RoamingCost {
  const { session } = input;
  const cost = costExclVat(input);
  const vatKind: VatKind = input.agreement?.vatKind ?? 'standard';
  let vatPercent = '0';
  if (vatKind === 'standard' || vatKind === 'reduced') {
    const rate = input.vatRate(vatKind);
    if (!rate) throw new RoamingFailure('vat_rate_missing', `no ${vatKind} VAT rate of ${session.country} is valid at ${session.start.toISOString()}`, `${session.country}:${vatKind}`);
    vatPercent = normalize(rate.percentage);
  }
  // Rounded once to the cent (billing's vatOf): through 6 decimals first, 115.824999615 was 115.83.
  const vat = mulDivToCurrency(cost.exclVat, vatPercent, '100');
  return {
    source: cost.source, currency: input.currency, exclVat: cost.exclVat, vat, inclVat: addCurrency(cost.exclVat, vat), vatKind, vatPercent, split: cost.split,
    explanation: [cost.explanation, `roaming VAT: ${vatKind} ${vatPercent} % of ${session.country}`],
  };
}

/** The annotation when the reported and calculated amounts differ by more than 0.01; null otherwise. The difference is exact (unrounded). */
export function amountDifference(reported: string | null, calculated: string): string | null {
  if (reported === null) return null;
  const difference = subtractDecimal(calculated, reported);
  const magnitude = compareDecimal(difference, '0') < 0 ? subtractDecimal('0', difference) : difference;
  if (compareDecimal(magnitude, '0.01') <= 0) return null;
  return `reported ${normalize(reported)} excl. VAT, calculated ${calculated} (difference ${normalize(difference)})`;
}
