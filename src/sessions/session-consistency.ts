// What a reported session must agree with itself in before it is stored (decisions.md "A session
// that contradicts itself"): its idle time fits in its duration, no charge period starts after it
// ends, and a stated total energy is the energy its periods report. One that does not is refused
// at submission (REST 400, OCPI 2001), never stored nor priced; each transport names the member
// in its own words. A period may start before the session (CPOs that report periods on the hour
// do): its time is priced from the session's start (historical-tariff.ts).
import { compareDecimal, isDecimalText, isNegative, normalize, subtractDecimal, sumDecimal } from '../money/decimal.ts';
import { maxIdleSeconds } from '../pricing/max-idle-seconds.ts';

/** A stated total may differ from its periods' energy by rounding, at most this (10 Wh: each period rounded to the Wh). */
export const ENERGY_TOLERANCE_KWH = '0.01';

export interface ReportedFacts {
  startAt: Date;
  endAt: Date;
  idleSeconds: number;
  /** Each charge period's start; null where it is no timestamp (its own check refuses it). */
  periodStarts: (Date | null)[];
  /** The stated total, decimal text; null when none is stated. */
  totalEnergyKwh: string | null;
  /** The energy volumes the periods report, decimal text; none: the periods say nothing of energy. */
  periodEnergyVolumes: string[];
}

/** The member at fault and what is wrong with it (a predicate for "<member> …"). */
export type Contradiction =
  | { member: 'idle_time'; message: string }
  | { member: 'period_start'; index: number; message: string }
  | { member: 'total_energy'; message: string };

const wellFormed = (value: string) => isDecimalText(value) && !isNegative(value);

/** The first contradiction, or null. Values their own checks refuse (negative, not decimal) are left to those. */
export function contradictionOf(facts: ReportedFacts): Contradiction | null {
  const durationSeconds = maxIdleSeconds(facts.startAt, facts.endAt);
  if (facts.idleSeconds > durationSeconds) {
    return { member: 'idle_time', message: `is more than the session lasts (${durationSeconds} s from its start to its end)` };
  }
  const late = facts.periodStarts.findIndex((start) => start !== null && start > facts.endAt);
  if (late >= 0) return { member: 'period_start', index: late, message: `is after the session's end (${facts.endAt.toISOString()})` };
  const { totalEnergyKwh: total, periodEnergyVolumes: volumes } = facts;
  if (total === null || volumes.length === 0 || !wellFormed(total) || !volumes.every(wellFormed)) return null;
  const periods = sumDecimal(volumes);
  const difference = subtractDecimal(total, periods);
  const beyond = compareDecimal(isNegative(difference) ? subtractDecimal('0', difference) : difference, ENERGY_TOLERANCE_KWH) > 0;
  return beyond
    ? { member: 'total_energy', message: `differs from the energy of the charge periods (${normalize(periods)} kWh) by more than ${ENERGY_TOLERANCE_KWH} kWh` }
    : null;
}
