// Prices a session against an OCPI 2.2.1 tariff. Amounts stay unrounded (6 decimals) per line;
// the totals are rounded half away from zero once, at the end. The arithmetic is exact, in
// micro-units (src/money/micros.ts), and becomes decimal text in the result only.
import {
  microsFromNumber, microsText, mulDivMicros, ONE_MICROS, roundMicrosToCurrency, type Micros,
} from '../../money/micros.ts';
import { compileRestrictions, restrictionsMatch, type CompiledRestrictions, type PeriodContext } from './restrictions.ts';
import { applyStepSize, stepGroups, type Slice } from './step-size.ts';
import type { OcpiSession, OcpiTariff, PriceComponent, PriceComponentType, TariffElement } from './tariff.ts';

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

const SECONDS_PER_HOUR = 3_600_000_000n;
const HUNDRED = 100_000_000n;
const PRICED = ['ENERGY', 'TIME', 'PARKING_TIME'] as const;

/** A tariff element as the evaluation reads it: its restrictions read when first checked. */
interface Element { components: PriceComponent[]; given: TariffElement['restrictions']; restrictions?: CompiledRestrictions }

interface Found { elementIndex: number; componentIndex: number; component: PriceComponent }

type FlatSlice = Omit<Slice, 'dimension'> & { dimension: 'FLAT' };

/** A cost line while it is summed, in micro-units. */
interface LineSum {
  dimension: PriceComponentType;
  reservation: boolean;
  elementIndex: number;
  componentIndex: number;
  volume: Micros;
  billedVolume: Micros;
  price: Micros;
  vatPercent: Micros | null;
  amountExclVat: Micros;
  vatAmountUnrounded: Micros;
}

function dimensionValues(period: OcpiSession['charging_periods'][number]): Map<string, Micros> {
  const values = new Map<string, Micros>();
  for (const d of period.dimensions) {
    const volume = microsFromNumber(d.volume);
    const sum = values.get(d.type);
    values.set(d.type, sum === undefined ? volume : sum + volume);
  }
  return values;
}

function findComponent(elements: Element[], type: PriceComponentType, ctx: PeriodContext): Found | null {
  for (let elementIndex = 0; elementIndex < elements.length; elementIndex++) {
    const element = elements[elementIndex];
    let componentIndex = 0;
    while (componentIndex < element.components.length && element.components[componentIndex].type !== type) componentIndex++;
    if (componentIndex < element.components.length && restrictionsMatch(element.restrictions ??= compileRestrictions(element.given), ctx)) {
      return { elementIndex, componentIndex, component: element.components[componentIndex] };
    }
  }
  return null;
}

function costLine(slice: Slice | FlatSlice): LineSum {
  const c: PriceComponent = slice.component;
  const price = microsFromNumber(c.price);
  const amountExclVat = slice.dimension === 'ENERGY' || slice.dimension === 'FLAT'
    ? mulDivMicros(slice.billedVolume, price)
    : mulDivMicros(slice.billedVolume, price, SECONDS_PER_HOUR);
  const vatPercent = c.vat == null ? null : microsFromNumber(c.vat);
  return {
    dimension: slice.dimension,
    reservation: slice.reservation,
    elementIndex: slice.elementIndex,
    componentIndex: slice.componentIndex,
    volume: slice.volume,
    billedVolume: slice.billedVolume,
    price,
    vatPercent,
    amountExclVat,
    vatAmountUnrounded: vatPercent === null ? 0n : mulDivMicros(amountExclVat, vatPercent, HUNDRED),
  };
}

function costLineText(line: LineSum): OcpiCostLine {
  return {
    dimension: line.dimension,
    reservation: line.reservation,
    elementIndex: line.elementIndex,
    componentIndex: line.componentIndex,
    unit: line.dimension === 'ENERGY' ? 'kWh' : line.dimension === 'FLAT' ? 'session' : 'second',
    volume: microsText(line.volume),
    billedVolume: microsText(line.billedVolume),
    price: microsText(line.price),
    vatPercent: line.vatPercent === null ? null : microsText(line.vatPercent),
    amountExclVat: microsText(line.amountExclVat),
    vatAmountUnrounded: microsText(line.vatAmountUnrounded),
    amountInclVat: microsText(line.amountExclVat + line.vatAmountUnrounded),
  };
}

export function evaluateOcpiTariff(tariff: OcpiTariff, session: OcpiSession): OcpiTariffResult {
  const explanation: string[] = [];
  const elements: Element[] = tariff.elements.map((e) => ({ components: e.price_components, given: e.restrictions }));
  const sessionStart = new Date(session.start_date_time).getTime();
  const expired = session.reservation?.outcome === 'EXPIRED';
  const inSeconds = session.time_in_seconds === true;
  const slices: Slice[] = [];
  const flats: FlatSlice[] = [];
  let energyBefore = 0n;

  const periods = session.charging_periods;
  for (let index = 0; index < periods.length; index++) {
    const values = dimensionValues(periods[index]);
    const start = new Date(periods[index].start_date_time);
    const isReservation = values.has('RESERVATION_TIME');
    const ctx: PeriodContext = {
      start,
      timeZone: session.time_zone,
      energyBeforeKwh: energyBefore,
      sessionStartMs: sessionStart,
      dimensions: values,
      isReservation,
      reservationExpired: expired,
    };
    for (const dimension of PRICED) {
      const raw = dimension === 'TIME' && isReservation ? values.get('RESERVATION_TIME') : values.get(dimension);
      if (raw === undefined) continue;
      const volume = dimension === 'ENERGY' || inSeconds ? raw : mulDivMicros(raw, SECONDS_PER_HOUR);
      const found = findComponent(elements, dimension, ctx);
      if (!found) {
        explanation.push(`period ${index}: no element prices ${dimension}; it is free`);
        continue;
      }
      slices.push({
        dimension, reservation: isReservation, elementIndex: found.elementIndex, componentIndex: found.componentIndex, component: found.component,
        volume, billedVolume: volume,
      });
      explanation.push(`period ${index}: ${dimension} ${microsText(volume)} ${dimension === 'ENERGY' ? 'kWh' : 's'} by element ${found.elementIndex} component ${found.componentIndex}`);
    }
    if (!flats.some((f) => f.reservation === isReservation)) {
      const flat = findComponent(elements, 'FLAT', ctx);
      if (flat) {
        flats.push({ dimension: 'FLAT', reservation: isReservation, ...flat, volume: ONE_MICROS, billedVolume: ONE_MICROS });
        explanation.push(`period ${index}: FLAT${isReservation ? ' (reservation)' : ''} once, by element ${flat.elementIndex} component ${flat.componentIndex}`);
      }
    }
    energyBefore += values.get('ENERGY') ?? 0n;
  }

  for (const group of stepGroups(slices)) {
    const extra = applyStepSize(group);
    if (extra !== null && extra > 0n) {
      explanation.push(`step_size: ${group[0].dimension} rounded up by ${microsText(extra)} on the last period`);
    }
  }

  const merged = mergeLines([...flats, ...slices].map(costLine));
  let exclVat = 0n;
  let vat = 0n;
  for (const line of merged) {
    exclVat += line.amountExclVat;
    vat += line.vatAmountUnrounded;
  }
  // A sum of no lines reads "0", as the sum of texts it stands for did.
  const sum = (value: Micros): Total => ({ value, text: merged.length ? microsText(value) : '0' });
  const totals = clamp(tariff, sum(exclVat), sum(exclVat + vat), explanation);
  return {
    currency: tariff.currency,
    totalCost: { exclVat: roundMicrosToCurrency(totals.exclVat.value), inclVat: roundMicrosToCurrency(totals.inclVat.value) },
    totalCostUnrounded: { exclVat: totals.exclVat.text, inclVat: totals.inclVat.text },
    lines: merged.map(costLineText),
    explanation,
  };
}

function mergeLines(lines: LineSum[]): LineSum[] {
  const merged: LineSum[] = [];
  for (const line of lines) {
    const prev = merged.find((m) => m.reservation === line.reservation && m.dimension === line.dimension
      && m.elementIndex === line.elementIndex && m.componentIndex === line.componentIndex);
    if (!prev) {
      merged.push({ ...line });
      continue;
    }
    prev.volume += line.volume;
    prev.billedVolume += line.billedVolume;
    prev.amountExclVat += line.amountExclVat;
    prev.vatAmountUnrounded += line.vatAmountUnrounded;
  }
  return merged;
}

interface Total { value: Micros; text: string }

const given = (n: number): Total => {
  const value = microsFromNumber(n);
  return { value, text: microsText(value) };
};

function clamp(tariff: OcpiTariff, exclVat: Total, inclVat: Total, explanation: string[]) {
  const min = tariff.min_price;
  const max = tariff.max_price;
  if (min && exclVat.value < microsFromNumber(min.excl_vat)) {
    explanation.push(`min_price: excl. VAT ${exclVat.text} raised to ${min.excl_vat}`);
    exclVat = given(min.excl_vat);
  }
  if (min?.incl_vat != null && inclVat.value < microsFromNumber(min.incl_vat)) {
    explanation.push(`min_price: incl. VAT ${inclVat.text} raised to ${min.incl_vat}`);
    inclVat = given(min.incl_vat);
  }
  if (max && exclVat.value > microsFromNumber(max.excl_vat)) {
    explanation.push(`max_price: excl. VAT ${exclVat.text} capped at ${max.excl_vat}`);
    exclVat = given(max.excl_vat);
  }
  if (max?.incl_vat != null && inclVat.value > microsFromNumber(max.incl_vat)) {
    explanation.push(`max_price: incl. VAT ${inclVat.text} capped at ${max.incl_vat}`);
    inclVat = given(max.incl_vat);
  }
  return { exclVat, inclVat };
}
