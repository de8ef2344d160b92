// Prices a session against an OCPI 2.2.1 tariff. Amounts stay unrounded (6 decimals) per line;
// the totals are rounded half away from zero once, at the end.
import { addDecimal, compareDecimal, decimalFromNumber, mulDivDecimal, roundToCurrency } from '../../money/decimal.ts';
import { restrictionsMatch, type PeriodContext } from './restrictions.ts';
import { applyStepSize, stepGroups, type Slice } from './step-size.ts';
import type { OcpiSession, OcpiTariff, PriceComponent, PriceComponentType } from './tariff.ts';

export interface OcpiCostLine {
  dimension: PriceComponentType;
  /** Produced by a reservation element (restrictions.reservation). */
  reservation: boolean;
  elementIndex: number;
  componentIndex: number;
  /** kWh, seconds, or 1 for FLAT. */
  unit: 'kWh' | 'second' | 'session';
  volume: string;
  billedVolume: string;
  /** Per kWh, per hour or per session, as in the tariff. */
  price: string;
  vatPercent: string | null;
  amountExclVat: string;
  vatAmountUnrounded: string;
  amountInclVat: string;
}

export interface OcpiTariffResult {
  currency: string;
  totalCost: { exclVat: string; inclVat: string };
  totalCostUnrounded: { exclVat: string; inclVat: string };
  lines: OcpiCostLine[];
  explanation: string[];
}

const SECONDS_PER_HOUR = '3600';
const PRICED = ['ENERGY', 'TIME', 'PARKING_TIME'] as const;

function dimensionValues(period: OcpiSession['charging_periods'][number]): Map<string, string> {
  const values = new Map<string, string>();
  for (const d of period.dimensions) values.set(d.type, addDecimal(values.get(d.type) ?? '0', decimalFromNumber(d.volume)));
  return values;
}

function findComponent(tariff: OcpiTariff, type: PriceComponentType, ctx: PeriodContext) {
  for (const [elementIndex, element] of tariff.elements.entries()) {
    const componentIndex = element.price_components.findIndex((c) => c.type === type);
    if (componentIndex >= 0 && restrictionsMatch(element.restrictions, ctx)) {
      return { elementIndex, componentIndex, component: element.price_components[componentIndex] };
    }
  }
  return null;
}

function costLine(slice: Omit<Slice, 'dimension'> & { dimension: PriceComponentType }): OcpiCostLine {
  const c: PriceComponent = slice.component;
  const price = decimalFromNumber(c.price);
  const amountExclVat = slice.dimension === 'ENERGY' || slice.dimension === 'FLAT'
    ? mulDivDecimal(slice.billedVolume, price)
    : mulDivDecimal(slice.billedVolume, price, SECONDS_PER_HOUR);
  const vatPercent = c.vat == null ? null : decimalFromNumber(c.vat);
  const vatAmountUnrounded = vatPercent === null ? '0.00' : mulDivDecimal(amountExclVat, vatPercent, '100');
  return {
    dimension: slice.dimension,
    reservation: slice.reservation,
    elementIndex: slice.elementIndex,
    componentIndex: slice.componentIndex,
    unit: slice.dimension === 'ENERGY' ? 'kWh' : slice.dimension === 'FLAT' ? 'session' : 'second',
    volume: slice.volume,
    billedVolume: slice.billedVolume,
    price,
    vatPercent,
    amountExclVat,
    vatAmountUnrounded,
    amountInclVat: addDecimal(amountExclVat, vatAmountUnrounded),
  };
}

export function evaluateOcpiTariff(tariff: OcpiTariff, session: OcpiSession): OcpiTariffResult {
  const explanation: string[] = [];
  const sessionStart = new Date(session.start_date_time).getTime();
  const expired = session.reservation?.outcome === 'EXPIRED';
  const slices: Slice[] = [];
  const flats: Array<Omit<Slice, 'dimension'> & { dimension: 'FLAT' }> = [];
  let energyBefore = '0';

  for (const [index, period] of session.charging_periods.entries()) {
    const values = dimensionValues(period);
    const start = new Date(period.start_date_time);
    const isReservation = values.has('RESERVATION_TIME');
    const ctx: PeriodContext = {
      start,
      timeZone: session.time_zone,
      energyBeforeKwh: energyBefore,
      secondsSinceStart: decimalFromNumber((start.getTime() - sessionStart) / 1000),
      dimensions: values,
      isReservation,
      reservationExpired: expired,
    };
    const volumes: Record<(typeof PRICED)[number], string | undefined> = {
      ENERGY: values.get('ENERGY'),
      TIME: isReservation ? values.get('RESERVATION_TIME') : values.get('TIME'),
      PARKING_TIME: values.get('PARKING_TIME'),
    };
    for (const dimension of PRICED) {
      const raw = volumes[dimension];
      if (raw === undefined) continue;
      const volume = dimension === 'ENERGY' ? raw : mulDivDecimal(raw, SECONDS_PER_HOUR);
      const found = findComponent(tariff, dimension, ctx);
      if (!found) {
        explanation.push(`period ${index}: no element prices ${dimension}; it is free`);
        continue;
      }
      slices.push({ dimension, reservation: isReservation, ...found, volume, billedVolume: volume });
      explanation.push(`period ${index}: ${dimension} ${volume} ${dimension === 'ENERGY' ? 'kWh' : 's'} by element ${found.elementIndex} component ${found.componentIndex}`);
    }
    if (!flats.some((f) => f.reservation === isReservation)) {
      const flat = findComponent(tariff, 'FLAT', ctx);
      if (flat) {
        flats.push({ dimension: 'FLAT', reservation: isReservation, ...flat, volume: '1.00', billedVolume: '1.00' });
        explanation.push(`period ${index}: FLAT${isReservation ? ' (reservation)' : ''} once, by element ${flat.elementIndex} component ${flat.componentIndex}`);
      }
    }
    energyBefore = addDecimal(energyBefore, values.get('ENERGY') ?? '0');
  }

  for (const group of stepGroups(slices)) {
    const extra = applyStepSize(group);
    if (extra && compareDecimal(extra, '0') > 0) {
      explanation.push(`step_size: ${group[0].dimension} rounded up by ${extra} on the last period`);
    }
  }

  const lines = mergeLines([...flats, ...slices].map(costLine));
  let exclVat = lines.reduce((sum, l) => addDecimal(sum, l.amountExclVat), '0');
  let inclVat = lines.reduce((sum, l) => addDecimal(sum, l.amountInclVat), '0');
  ({ exclVat, inclVat } = clamp(tariff, exclVat, inclVat, explanation));
  return {
    currency: tariff.currency,
    totalCost: { exclVat: roundToCurrency(exclVat), inclVat: roundToCurrency(inclVat) },
    totalCostUnrounded: { exclVat, inclVat },
    lines,
    explanation,
  };
}

function mergeLines(lines: OcpiCostLine[]): OcpiCostLine[] {
  const merged = new Map<string, OcpiCostLine>();
  for (const line of lines) {
    const key = `${line.reservation}|${line.dimension}|${line.elementIndex}|${line.componentIndex}`;
    const prev = merged.get(key);
    if (!prev) {
      merged.set(key, { ...line });
      continue;
    }
    prev.volume = addDecimal(prev.volume, line.volume);
    prev.billedVolume = addDecimal(prev.billedVolume, line.billedVolume);
    prev.amountExclVat = addDecimal(prev.amountExclVat, line.amountExclVat);
    prev.vatAmountUnrounded = addDecimal(prev.vatAmountUnrounded, line.vatAmountUnrounded);
    prev.amountInclVat = addDecimal(prev.amountInclVat, line.amountInclVat);
  }
  return [...merged.values()];
}

function clamp(tariff: OcpiTariff, exclVat: string, inclVat: string, explanation: string[]) {
  const min = tariff.min_price;
  const max = tariff.max_price;
  if (min && compareDecimal(exclVat, decimalFromNumber(min.excl_vat)) < 0) {
    explanation.push(`min_price: excl. VAT ${exclVat} raised to ${min.excl_vat}`);
    exclVat = decimalFromNumber(min.excl_vat);
  }
  if (min?.incl_vat != null && compareDecimal(inclVat, decimalFromNumber(min.incl_vat)) < 0) {
    explanation.push(`min_price: incl. VAT ${inclVat} raised to ${min.incl_vat}`);
    inclVat = decimalFromNumber(min.incl_vat);
  }
  if (max && compareDecimal(exclVat, decimalFromNumber(max.excl_vat)) > 0) {
    explanation.push(`max_price: excl. VAT ${exclVat} capped at ${max.excl_vat}`);
    exclVat = decimalFromNumber(max.excl_vat);
  }
  if (max?.incl_vat != null && compareDecimal(inclVat, decimalFromNumber(max.incl_vat)) > 0) {
    explanation.push(`max_price: incl. VAT ${inclVat} capped at ${max.incl_vat}`);
    inclVat = decimalFromNumber(max.incl_vat);
  }
  return { exclVat, inclVat };
}
