// Charge periods built from a session's timestamps, split where an OCPI tariff's choice of element
// can change: OCPI has the CPO start a new charging period there, and the evaluator reads a
// period's restrictions at its start only (a period from 19:52 to 20:12 is all "before 20:00").
// Time splits exactly; a period's energy is shared by time (constant power), except at a kWh
// restriction, which the energy reaches exactly where the period is cut.
import { microsFromNumber, type Micros } from '../../money/micros.ts';
import { clockMinutes, nextWallClockChange } from '../local-time.ts';
import type { OcpiTariff } from './tariff.ts';

/** A stretch of a session: charging (energy and time) or parking, from `start` until `end` (ms). */
export interface Span { start: number; end: number; energy: Micros; parking: boolean }

/** More cuts than this and the session cannot be priced by the tariff (each cut is a period to evaluate and explain). */
export const MAX_TARIFF_CUTS = 1000;

interface Changes { clockMinutes: number[]; afterStartMs: number[]; kwh: Micros[] }

function changesOf(tariff: OcpiTariff): Changes {
  const clock = new Set<number>();
  const durations = new Set<number>();
  const kwh = new Set<Micros>();
  for (const { restrictions: r } of tariff.elements) {
    if (!r) continue;
    for (const time of [r.start_time, r.end_time]) if (time) clock.add(clockMinutes(time));
    if (r.start_date || r.end_date || r.day_of_week?.length) clock.add(0);
    for (const seconds of [r.min_duration, r.max_duration]) if (seconds != null && seconds > 0) durations.add(Math.ceil(seconds * 1000));
    for (const bound of [r.min_kwh, r.max_kwh]) if (bound != null && bound > 0) kwh.add(microsFromNumber(bound));
  }
  return { clockMinutes: [...clock].filter(Number.isFinite), afterStartMs: [...durations], kwh: [...kwh].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

class Cuts {
  private count = 0;
  take() {
    if (++this.count > MAX_TARIFF_CUTS) throw new Error(`the tariff changes more than ${MAX_TARIFF_CUTS} times within the session`);
  }
}

/** Energy × part ÷ whole, toward zero: the last piece takes what is left, so the pieces sum exactly. */
const share = (energy: Micros, part: number, whole: number): Micros => (energy * BigInt(part)) / BigInt(whole);

function cutAtTimes(span: Span, changes: Changes, sessionStartMs: number, timeZone: string, cuts: Cuts): Span[] {
  if (span.end <= span.start) return [span];
  const at = new Set<number>();
  for (const ms of changes.afterStartMs) {
    if (sessionStartMs + ms > span.start && sessionStartMs + ms < span.end && !at.has(sessionStartMs + ms)) {
      at.add(sessionStartMs + ms);
      cuts.take();
    }
  }
  if (changes.clockMinutes.length) {
    for (let t = nextWallClockChange(span.start, changes.clockMinutes, timeZone); t < span.end; t = nextWallClockChange(t, changes.clockMinutes, timeZone)) {
      if (!at.has(t)) cuts.take();
      at.add(t);
    }
  }
  if (!at.size) return [span];
  const bounds = [span.start, ...[...at].sort((a, b) => a - b), span.end];
  const whole = span.end - span.start;
  let left = span.energy;
  return bounds.slice(1).map((end, i) => {
    const energy = end === span.end ? left : share(span.energy, end - bounds[i], whole);
    left -= energy;
    return { start: bounds[i], end, energy, parking: span.parking };
  });
}

function cutAtEnergy(spans: Span[], bounds: Micros[], cuts: Cuts): Span[] {
  const out: Span[] = [];
  let before = 0n;
  for (let span of spans) {
    for (const bound of bounds) {
      if (span.parking || span.energy <= 0n || !(bound > before && bound < before + span.energy)) continue;
      cuts.take();
      const energy = bound - before;
      // The first millisecond by which the energy is reached, at constant power.
      const end = span.start + Number((energy * BigInt(span.end - span.start) + span.energy - 1n) / span.energy);
      out.push({ start: span.start, end, energy, parking: false });
      before = bound;
      span = { start: end, end: span.end, energy: span.energy - energy, parking: false };
    }
    out.push(span);
    before += span.energy;
  }
  return out;
}

/** The spans (in order), cut where the tariff's element choice can change. */
export function cutAtTariffChanges(spans: Span[], tariff: OcpiTariff, sessionStartMs: number, timeZone: string): Span[] {
  const changes = changesOf(tariff);
  const cuts = new Cuts();
  const timed = spans.flatMap((span) => cutAtTimes(span, changes, sessionStartMs, timeZone, cuts));
  return changes.kwh.length ? cutAtEnergy(timed, changes.kwh, cuts) : timed;
}
