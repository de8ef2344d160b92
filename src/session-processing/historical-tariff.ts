// What the CPO charges for a roaming session, from the OCPI tariff it sent along
// (`historical_tariff`), when it did not state the amount (`total_roaming_amount_excl_vat`).
// The session's charge periods carry energy only, so each period also gets its share of the
// charging time (until the next period, idle time last as parking time), within the session, in
// exact seconds (time_in_seconds) rather than OCPI's hours.
import { evaluateOcpiTariff, type OcpiCostLine } from '../pricing/ocpi/evaluate-tariff.ts';
import type { ChargingPeriod, OcpiTariff } from '../pricing/ocpi/tariff.ts';
import { periodEnergyKwh, type ReportedChargePeriod } from '../sessions/session-energy.ts';
import { ocpiFailure } from '../ocpi/validate.ts';

export interface TariffSession {
  start: Date;
  end: Date;
  energyKwh: string;
  idleSeconds: number;
  timeZone: string;
  chargePeriods: ReportedChargePeriod[] | null;
}

/** Exact seconds (ms / 1000 has at most 3 decimals, which the evaluator reads back exactly): hours of 1/6 h have no exact decimal. */
const seconds = (ms: number) => Math.max(ms, 0) / 1000;

function periodsOf(session: TariffSession): ChargingPeriod[] {
  const chargingEnd = session.end.getTime() - session.idleSeconds * 1000;
  const given = session.chargePeriods?.length
    // A period reported from before the session (on the hour, as some CPOs do) is priced from its start.
    ? session.chargePeriods.map((p) => ({ start: Math.max(new Date(p.start_date_time).getTime(), session.start.getTime()), energy: periodEnergyKwh(p) }))
      // OCPI does not require the periods in order: each one's time runs until the next to start.
      .sort((a, b) => a.start - b.start)
    : [{ start: session.start.getTime(), energy: session.energyKwh }];
  // OCPI volumes are JSON numbers: the exact decimal (at most 6 decimals) converts without loss.
  const periods: ChargingPeriod[] = given.map((p, i) => ({
    start_date_time: new Date(p.start).toISOString(),
    dimensions: [{ type: 'ENERGY', volume: Number(p.energy) }, { type: 'TIME', volume: seconds(Math.min(given[i + 1]?.start ?? chargingEnd, chargingEnd) - p.start) }],
  }));
  if (session.idleSeconds > 0) {
    periods.push({ start_date_time: new Date(chargingEnd).toISOString(), dimensions: [{ type: 'PARKING_TIME', volume: session.idleSeconds }] });
  }
  return periods;
}

/**
 * The CPO cost by the tariff; throws when what pricing reads of it does not conform (an unknown or
 * lower-case dimension priced nothing, a string or negative price was taken as a price).
 */
export function cpoCostFromTariff(tariff: OcpiTariff, session: TariffSession): { currency: string; exclVat: string; explanation: string; lines: OcpiCostLine[] } {
  const failure = ocpiFailure('pricedTariff', tariff);
  if (failure) throw new Error(failure);
  const result = evaluateOcpiTariff(tariff, {
    time_zone: session.timeZone, start_date_time: session.start.toISOString(), end_date_time: session.end.toISOString(),
    charging_periods: periodsOf(session), time_in_seconds: true,
  });
  return {
    currency: result.currency,
    exclVat: result.totalCost.exclVat,
    lines: result.lines,
    explanation: `CPO cost from the OCPI historical_tariff${tariff.id ? ` ${tariff.id}` : ''}: ${result.totalCost.exclVat} ${result.currency} excl. VAT`,
  };
}
