// OCPI step_size: applied once per session to the total volume of a dimension, with the step of
// the last period's component; the extra is billed in the last period (mod_tariffs step_size).
import { ceilToMultipleMicros, microsFromNumber, mulDivMicros, type Micros } from '../../money/micros.ts';
import type { PriceComponent } from './tariff.ts';

export interface Slice {
  dimension: 'ENERGY' | 'TIME' | 'PARKING_TIME';
  reservation: boolean;
  elementIndex: number;
  componentIndex: number;
  component: PriceComponent;
  /** kWh for ENERGY, seconds for TIME and PARKING_TIME, in micro-units. */
  volume: Micros;
  billedVolume: Micros;
}

const THOUSAND = 1_000_000_000n;

/** The step in the slice's volume unit: Wh → kWh for ENERGY, seconds otherwise. */
export function stepOf(slice: Slice): Micros {
  const step = microsFromNumber(slice.component.step_size ?? 0);
  return slice.dimension === 'ENERGY' ? mulDivMicros(step, 1_000_000n, THOUSAND) : step;
}

/** Rounds the group's total up to the last slice's step and adds the extra to that slice. */
export function applyStepSize(group: Slice[]): Micros | null {
  const last = group.at(-1);
  if (!last) return null;
  const step = stepOf(last);
  if (step <= 0n) return null;
  let total = 0n;
  for (const s of group) total += s.volume;
  const extra = ceilToMultipleMicros(total, step) - total;
  last.billedVolume += extra;
  return extra;
}

/** Groups per the README: ENERGY; reservation TIME; and TIME+PARKING_TIME where parking alone is rounded when present. */
export function stepGroups(slices: Slice[]): Slice[][] {
  const energy: Slice[] = [];
  const reservationTime: Slice[] = [];
  const parking: Slice[] = [];
  const time: Slice[] = [];
  for (const s of slices) {
    if (s.dimension === 'ENERGY') energy.push(s);
    else if (s.dimension === 'PARKING_TIME') parking.push(s);
    else (s.reservation ? reservationTime : time).push(s);
  }
  return [energy, reservationTime, parking.length ? parking : time];
}
