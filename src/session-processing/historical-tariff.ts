// What the CPO charges for a roaming session, from the OCPI tariff it sent along
// (`historical_tariff`), when it did not state the amount (`total_roaming_amount_excl_vat`).
// The session's charge periods carry energy only, so each period also gets its share of the
// charging time (until the next period, idle time last as parking time), within the session, in
// exact seconds (time_in_seconds) rather than OCPI's hours. Periods are cut where the tariff's
// element choice can change (src/pricing/ocpi/tariff-changes.ts).
import { evaluateOcpiTariff, type OcpiCostLine } from '../pricing/ocpi/evaluate-tariff.ts';
import type { ChargingPeriod, OcpiTariff } from '../pricing/ocpi/tariff.ts';
import { periodEnergyKwh, type ReportedChargePeriod } from '../sessions/session-energy.ts';
import { ocpiFailure } from '../ocpi/validate.ts';
import { cutAtTariffChanges, type Span } from '../pricing/ocpi/tariff-changes.ts';
import { microsFromText, microsText } from '../money/micros.ts';

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

function periodsOf(session: TariffSession, tariff: OcpiTariff): ChargingPeriod[] {
  const sessionStart = session.start.getTime();
  const chargingEnd = session.end.getTime() - session.idleSeconds * 1000;
  const given = session.chargePeriods?.length
    // A period reported from before the session (on the hour, as some CPOs do) is priced from its start.
    ? session.chargePeriods.map((p) => ({ start: Math.max(new Date(p.start_date_time).getTime(), sessionStart), energy: microsFromText(periodEnergyKwh(p)) }))
      // OCPI does not require the periods in order: each one's time runs until the next to start.
      .sort((a, b) => a.start - b.start)
    : [{ start: sessionStart, energy: microsFromText(session.energyKwh) }];
  const spans: Span[] = given.map((p, i) => ({ start: p.start, end: Math.max(Math.min(given[i + 1]?.start ?? chargingEnd, chargingEnd), p.start), energy: p.energy, parking: false }));
  if (session.idleSeconds > 0) spans.push({ start: chargingEnd, end: session.end.getTime(), energy: 0n, parking: true });
  // OCPI volumes are JSON numbers: the exact decimal (at most 6 decimals) converts without loss.
  return cutAtTariffChanges(spans, tariff, sessionStart, session.timeZone).map((span) => ({
    start_date_time: new Date(span.start).toISOString(),
    dimensions: span.parking
      ? [{ type: 'PARKING_TIME', volume: seconds(span.end - span.start) }]
      : [{ type: 'ENERGY', volume: Number(microsText(span.energy)) }, { type: 'TIME', volume: seconds(span.end - span.start) }],
  }));
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
    charging_periods: periodsOf(session, tariff), time_in_seconds: true,
  });
  return {
    currency: result.currency,
    exclVat: result.totalCost.exclVat,
    lines: result.lines,
    explanation: `CPO cost from the OCPI historical_tariff${tariff.id ? ` ${tariff.id}` : ''}: ${result.totalCost.exclVat} ${result.currency} excl. VAT`,
  };
}
