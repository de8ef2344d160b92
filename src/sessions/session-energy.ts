// The energy of a charge session as its sender reported it: total_energy_kwh when stated, else
// the sum of the energy of its charge periods; a period's energy is the sum of its dimension
// volumes (energy is the only dimension the feed accepts). Ingestion stores the session's energy
// by this rule and the historical-tariff evaluation splits it by period the same way.
import { normalize, sumDecimal } from '../money/decimal.ts';

/** A charge period as the feed reports it (volumes are decimal strings). */
export interface ReportedChargePeriod { start_date_time: string; dimensions: { type: string; volume: string }[] }

export interface ReportedEnergy {
  total_energy_kwh?: string | null;
  charge_periods?: ReportedChargePeriod[] | null;
}

export function periodEnergyKwh(period: ReportedChargePeriod): string {
  return sumDecimal(period.dimensions.map((dimension) => dimension.volume));
}

/** A session's energy is less than this (its column is numeric(20,6)); so is each reported volume. */
export const ENERGY_KWH_BOUND = '100000000000000';

/** Normalized kWh; undefined when neither total_energy_kwh nor charge_periods was reported. */
export function sessionEnergyKwh(reported: ReportedEnergy): string | undefined {
  if (reported.total_energy_kwh != null) return normalize(reported.total_energy_kwh);
  if (!reported.charge_periods) return undefined;
  return normalize(sumDecimal(reported.charge_periods.map(periodEnergyKwh)));
}
