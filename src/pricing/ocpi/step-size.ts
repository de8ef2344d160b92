// OCPI step_size: applied once per session to the total volume of a dimension, with the step of
// the last period's component; the extra is billed in the last period (mod_tariffs step_size).
import { addDecimal, ceilToMultiple, compareDecimal, decimalFromNumber, mulDivDecimal, subtractDecimal } from '../../money/decimal.ts';
import type { PriceComponent } from './tariff.ts';

export interface Slice {
  dimension: 'ENERGY' | 'TIME' | 'PARKING_TIME';
  reservation: boolean;
  elementIndex: number;
  componentIndex: number;
  component: PriceComponent;
  /** kWh for ENERGY, seconds for TIME and PARKING_TIME. */
  volume: string;
  billedVolume: string;
}

/** The step in the slice's volume unit: Wh → kWh for ENERGY, seconds otherwise. */
export function stepOf(slice: Slice): string {
  const step = decimalFromNumber(slice.component.step_size ?? 0);
  return slice.dimension === 'ENERGY' ? mulDivDecimal(step, '1', '1000') : step;
}

/** Rounds the group's total up to the last slice's step and adds the extra to that slice. */
export function applyStepSize(group: Slice[]): string | null {
  const last = group.at(-1);
  if (!last) return null;
  const step = stepOf(last);
  if (compareDecimal(step, '0') <= 0) return null;
  const total = group.reduce((sum, s) => addDecimal(sum, s.volume), '0');
  const extra = subtractDecimal(ceilToMultiple(total, step), total);
  last.billedVolume = addDecimal(last.billedVolume, extra);
  return extra;
}

/** Groups per the README: ENERGY; reservation TIME; and TIME+PARKING_TIME where parking alone is rounded when present. */
export function stepGroups(slices: Slice[]): Slice[][] {
  const energy = slices.filter((s) => s.dimension === 'ENERGY');
  const reservationTime = slices.filter((s) => s.dimension === 'TIME' && s.reservation);
  const parking = slices.filter((s) => s.dimension === 'PARKING_TIME');
  const time = slices.filter((s) => s.dimension === 'TIME' && !s.reservation);
  return [energy, reservationTime, parking.length ? parking : time];
}
