// `npm run bench -- ocpi-tariff`: OCPI 2.2.1 tariff evaluation alone, in process, on one core (no
// database; the url is unused). The tariffs are the distinct ones of the conformance vectors
// (../shared/vectors/ocpi-tariffs/cases); each gets generated sessions (fixed seed): local start
// times over the week and the day in five zones, charging split into periods with ENERGY, TIME
// and MAX_CURRENT or MAX_POWER, parking afterwards, now and then a reservation before (used or
// expired). The figure is sessions/s of `evaluateOcpiTariff` over that mix, per second of this
// process's CPU time (one thread; the wall-time rate, printed too, counts the turns of the other
// jobs of a shared machine). The baseline is a trivial reference over the same pairs in the same
// run: per period and dimension, volume × the first price of that dimension, summed with the
// exact micro-unit arithmetic the evaluator uses (no restrictions, step sizes, VAT, clamps or
// text). The target, 50,000 sessions/s, is printed against the figure. A digest of every result
// of one pass is printed: a change of the evaluator must leave it as it is.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { microsFromNumber, mulDivMicros } from '../src/money/micros.ts';
import { evaluateOcpiTariff } from '../src/pricing/ocpi/evaluate-tariff.ts';
import type { ChargingPeriod, OcpiSession, OcpiTariff } from '../src/pricing/ocpi/tariff.ts';
import type { BenchmarkResult } from './run.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

const SECONDS = Number(process.env.BENCH_OCPI_SECONDS ?? 4);
const SESSIONS_PER_TARIFF = 400;
const TARGET = 50_000;
const CASES = new URL('../../shared/vectors/ocpi-tariffs/cases/', import.meta.url);
const ZONES = ['Europe/Amsterdam', 'Europe/Berlin', 'Europe/Paris', 'Europe/London', 'UTC'];
/** kW and the current the car draws at it (three phases above 7.4 kW). */
const CHARGERS = [[3.7, 16], [7.4, 32], [11, 16], [22, 32], [50, 125], [150, 375]] as const;

function vectorTariffs(): OcpiTariff[] {
  const seen = new Map<string, OcpiTariff>();
  for (const file of readdirSync(CASES).filter((f) => f.endsWith('.json')).sort()) {
    const tariff = JSON.parse(readFileSync(new URL(file, CASES), 'utf8')).tariff as OcpiTariff;
    seen.set(JSON.stringify(tariff), tariff);
  }
  return [...seen.values()];
}


/** Hours as a CDR states them: a JSON number of at most 6 decimals. */
const hours = (minutes: number) => Number((minutes / 60).toFixed(6));
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function generateSession(next: () => number, reservations: boolean): OcpiSession {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  // 2019 to 2026, on the minute: every weekday and clock time, both sides of DST changes.
  const first = Date.UTC(2019, 0, 1);
  let at = first + between(0, 8 * 365 * 24 * 60) * 60_000;
  const start = at;
  const periods: ChargingPeriod[] = [];
  let reservation: OcpiSession['reservation'] = null;
  if (reservations && next() < 0.3) {
    const expired = next() < 0.3;
    const minutes = between(5, 90);
    reservation = { outcome: expired ? 'EXPIRED' : 'USED' };
    periods.push({ start_date_time: iso(at), dimensions: [{ type: 'RESERVATION_TIME', volume: hours(minutes) }] });
    at += minutes * 60_000;
    if (expired) return { time_zone: pick(ZONES), start_date_time: iso(start), end_date_time: iso(at), charging_periods: periods, reservation };
  }
  const [kw, amps] = pick(CHARGERS);
  let charging = between(5, 600);
  while (charging > 0) {
    // A CPO cuts a period where its tariff or the charging changes: every 15 minutes to 2 hours.
    const minutes = Math.min(charging, between(15, 120));
    const load = 0.5 + next() / 2;
    const energy = Number((kw * load * minutes / 60).toFixed(3));
    const limit = next() < 0.5
      ? { type: 'MAX_CURRENT', volume: Math.round(amps * load) }
      : { type: 'MAX_POWER', volume: Number((kw * load).toFixed(2)) };
    periods.push({ start_date_time: iso(at), dimensions: [{ type: 'ENERGY', volume: energy }, { type: 'TIME', volume: hours(minutes) }, limit] });
    at += minutes * 60_000;
    charging -= minutes;
  }
  if (next() < 0.6) {
    for (let parts = between(1, 2); parts > 0; parts--) {
      const minutes = between(1, 180);
      periods.push({ start_date_time: iso(at), dimensions: [{ type: 'PARKING_TIME', volume: hours(minutes) }] });
      at += minutes * 60_000;
    }
  }
  return { time_zone: pick(ZONES), start_date_time: iso(start), end_date_time: iso(at), charging_periods: periods, reservation };
}

export interface Pair { tariff: OcpiTariff; session: OcpiSession }

/** The tariffs interleaved, so a pass is the mix and not one tariff after the other (exported for profiling). */
export function pairs(tariffs = vectorTariffs()): Pair[] {
  const next = seededRandom(25);
  const reserving = tariffs.map((t) => t.elements.some((e) => e.restrictions?.reservation));
  const list: Pair[] = [];
  for (let i = 0; i < SESSIONS_PER_TARIFF; i++) {
    tariffs.forEach((tariff, t) => list.push({ tariff, session: generateSession(next, reserving[t]) }));
  }
  return list;
}

/** Volume × the first price of the dimension, exact: what any evaluator does at the least. */
function reference({ tariff, session }: Pair): bigint {
  let total = 0n;
  for (const period of session.charging_periods) {
    for (const d of period.dimensions) {
      const type = d.type === 'RESERVATION_TIME' ? 'TIME' : d.type;
      const component = tariff.elements.find((e) => e.price_components.some((c) => c.type === type))?.price_components.find((c) => c.type === type);
      // kWh × price per kWh, hours × price per hour.
      if (component) total += mulDivMicros(microsFromNumber(d.volume), microsFromNumber(component.price));
    }
  }
  return total;
}

interface Rate { cpu: number; wall: number }

/** Sessions per second of this process's CPU time (the machine is shared: wall time counts others' turns) and of wall time. */
function rate(list: Pair[], price: (pair: Pair) => unknown): Rate {
  let sink = 0;
  const pass = (deadline: number) => {
    let done = 0;
    while (performance.now() < deadline) {
      for (let i = 0; i < 500; i++) {
        const result = price(list[(done + i) % list.length]);
        sink += result === undefined ? 0 : 1;
      }
      done += 500;
    }
    return done;
  };
  pass(performance.now() + 1000);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const done = pass(started + SECONDS * 1000);
  const wallSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (sink === 0) throw new Error('nothing priced');
  return { cpu: done / ((used.user + used.system) / 1e6), wall: done / wallSeconds };
}

export async function ocpiTariffBenchmark(_url: string): Promise<BenchmarkResult> {
  const tariffs = vectorTariffs();
  const list = pairs(tariffs);
  const periods = list.reduce((n, p) => n + p.session.charging_periods.length, 0);
  const digest = createHash('sha256');
  let priced = 0;
  for (const pair of list) {
    const result = evaluateOcpiTariff(pair.tariff, pair.session);
    digest.update(JSON.stringify(result));
    if (result.totalCost.exclVat !== '0.00') priced++;
  }
  console.log(`  ${tariffs.length} distinct vector tariffs × ${SESSIONS_PER_TARIFF} generated sessions = ${list.length} pairs,`
    + ` ${(periods / list.length).toFixed(1)} charging periods a session, ${priced} with a cost`);
  console.log(`  results digest (one pass): ${digest.digest('hex').slice(0, 16)}`);
  const figure = rate(list, (pair) => evaluateOcpiTariff(pair.tariff, pair.session));
  const baseline = rate(list, reference);
  console.log(`  per second of wall time (others share the cores): evaluator ${figure.wall.toFixed(0)}, reference ${baseline.wall.toFixed(0)} sessions/s`);
  console.log(`  target ${TARGET.toLocaleString('en')} sessions/s: ${figure.cpu >= TARGET ? 'met' : 'MISSED'} (${(figure.cpu / TARGET).toFixed(2)} × target, per CPU second)`);
  return {
    name: 'OCPI tariff evaluation on one core (per second of CPU time)', unit: 'sessions/s', figure: figure.cpu, baseline: baseline.cpu,
    baselineLabel: 'trivial reference: volume × first price, exact micro-units, same pairs',
  };
}
