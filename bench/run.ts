// `npm run bench -- [name ...] [growth | growth:<name> ...]`: each benchmark prints its figure, a
// baseline measured in the same run on the same database, their ratio, and the peak memory of the
// process it ran in. This process only starts the embedded PostgreSQL (migrated once) and runs each
// benchmark in a process of its own (bench/run-one.ts); no arguments: every benchmark, then growth.
//
// Growth: the benchmarks marked `growth` in bench/benchmarks.ts, in a database of their own, with
// BENCH_GROWTH_LOW (100,000) and then BENCH_GROWTH_HIGH (1,000,000) priced sessions of other
// administrations stored beside them (bench/seed-stored-sessions.ts); a table shows both figures
// and how much slower the larger database is (target: at most 1.5 times). In growth the billing
// benchmark bills BENCH_GROWTH_BILLING_SESSIONS (100,000) sessions of its own and the export walks
// BENCH_GROWTH_EXPORT_SESSIONS (100,000) of its own; each gets the stored count in BENCH_STORED_SESSIONS.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { SERVICE_NODE_FLAGS } from '../src/platform/heap-config.ts';
import { migrate, openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue } from '../src/worker/worker.ts';
import { benchmarks, isTime } from './benchmarks.ts';
import type { ChildResult } from './run-one.ts';
import { seedStoredSessions } from './seed-stored-sessions.ts';
import { failLeftoverJobs } from './leftover-jobs.ts';
import { PG_STATEMENTS_SETTINGS, pgStatementsTop, statementStats } from './pg-statements.ts';

export type { BenchmarkResult } from './benchmarks.ts';

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number: ${process.env[name]}`);
  return value;
};
const MAX_RSS_MB = positive('BENCH_MAX_RSS_MB', 512);
/** BENCH_PG_STATEMENTS=<n>: PostgreSQL's top n statements after each benchmark (bench/pg-statements.ts). */
const PG_STATEMENTS_TOP = pgStatementsTop();
const GROWTH_LOW = positive('BENCH_GROWTH_LOW', 100_000);
const GROWTH_HIGH = positive('BENCH_GROWTH_HIGH', 1_000_000);
const GROWTH_BILLING_SESSIONS = positive('BENCH_GROWTH_BILLING_SESSIONS', 100_000);
const GROWTH_EXPORT_SESSIONS = positive('BENCH_GROWTH_EXPORT_SESSIONS', 100_000);
/** The slowdown growth allows: each figure at the high count within this factor of the low one, in time terms. */
const GROWTH_TARGET = 1.5;

const growthNames = Object.keys(benchmarks).filter((name) => benchmarks[name].growth);
const args = process.argv.slice(2).map((arg) => (arg === '--growth' ? 'growth' : arg)).filter((arg) => !arg.startsWith('-'));
const wanted = args.length ? args : [...Object.keys(benchmarks), 'growth'];
const standard: string[] = [];
const growth: string[] = [];
for (const arg of wanted) {
  if (arg === 'growth') growth.push(...growthNames.filter((name) => !growth.includes(name)));
  else if (arg.startsWith('growth:') && growthNames.includes(arg.slice(7))) growth.push(arg.slice(7));
  else if (benchmarks[arg]) standard.push(arg);
  else {
    console.error(`unknown benchmark ${arg}; known: ${Object.keys(benchmarks).join(', ')}, growth (${growthNames.join(', ')}), growth:<name>`);
    process.exit(2);
  }
}
if (growth.length && GROWTH_HIGH < GROWTH_LOW) {
  console.error(`BENCH_GROWTH_HIGH (${GROWTH_HIGH}) is below BENCH_GROWTH_LOW (${GROWTH_LOW})`);
  process.exit(2);
}

const format = (value: number): string => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(3));
const count = (n: number): string => n.toLocaleString('en-US');
let failures = 0;

/** A request's line of the service's log (pino JSON, below warn): the app logs every request at info. Other lines are shown. */
const isInfoLog = (line: string): boolean => /^\{"level":"(trace|debug|info)"/.test(line) && line.includes('"request_id":');

/**
 * One benchmark in a process of its own; its result, or null when it failed (its error is on
 * stderr). Its lines are passed on but the service's info log lines (one per request: they are
 * written, as in production, and left out here).
 */
function runChild(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<ChildResult | null> {
  // With the service's node flags (its heap configuration, src/platform/heap-config.ts): its peak RSS is the service's.
  // BENCH_CPU_PROF=<dir>: each benchmark's process writes a CPU profile there (NODE_OPTIONS refuses --cpu-prof).
  // BENCH_NODE_FLAGS: more node flags for each benchmark's process, e.g. `--trace-gc` (NODE_OPTIONS refuses most V8 flags).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const extraFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...extraFlags, ...profile, fileURLToPath(new URL('./run-one.ts', import.meta.url)), name, databaseUrl], {
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'], env: { ...process.env, ...env, BENCH_RESULT_FD: '3' },
  });
  let output = '';
  child.stdio[3]!.on('data', (chunk) => { output += chunk; });
  let pending = '';
  let left = 0;
  child.stdout!.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (isInfoLog(line)) left++;
      else console.log(line);
    }
  });
  return new Promise((resolve) => child.on('close', (code, signal) => {
    if (pending && !isInfoLog(pending)) console.log(pending);
    if (left) console.log(`  (${left} request lines of the service's log left out)`);
    if (code === 0 && output.trim()) return resolve(JSON.parse(output.trim()) as ChildResult);
    console.log(`  FAILED: ${name} ended with ${signal ?? `exit code ${code}`}`);
    failures++;
    resolve(null);
  }));
}

function memoryLine(result: ChildResult): string {
  const line = `  peak RSS of the benchmark's process: ${result.maxRssMb.toFixed(0)} MB (limit ${MAX_RSS_MB} MB); it ran ${result.seconds.toFixed(0)} s`;
  return result.maxRssMb > MAX_RSS_MB ? `${line}\n  WARNING: ${result.name} used ${result.maxRssMb.toFixed(0)} MB, over the ${MAX_RSS_MB} MB limit` : line;
}

function printResult(result: ChildResult): void {
  console.log(`${result.name}: ${format(result.figure)} ${result.unit}`);
  console.log(`  baseline (${result.baselineLabel}): ${format(result.baseline)} ${result.unit}`);
  console.log(`  ratio: ${(result.figure / result.baseline).toFixed(3)}`);
  console.log(memoryLine(result));
}

/** How much slower the high count is than the low one, in time terms (>1: slower). */
const slowdown = (unit: string, low: number, high: number): number => (isTime(unit) ? high / low : low / high);

function printGrowth(results: Map<string, { low: ChildResult | null; high: ChildResult | null }>, seeded: { low: number; high: number }): void {
  const rows: string[][] = [];
  const verdict = (unit: string, low: number, high: number) => {
    const s = slowdown(unit, low, high);
    return `${s.toFixed(2)} ${s <= GROWTH_TARGET ? 'ok' : `OVER ${GROWTH_TARGET}`}`;
  };
  for (const [name, { low, high }] of results) {
    if (!low || !high) {
      rows.push([name, low ? format(low.figure) : 'failed', high ? format(high.figure) : 'failed', '', '']);
      continue;
    }
    rows.push([`${name}: ${low.name}`, format(low.figure), format(high.figure), low.unit, verdict(low.unit, low.figure, high.figure)]);
    rows.push([`  baseline: ${low.baselineLabel}`, format(low.baseline), format(high.baseline), low.unit, slowdown(low.unit, low.baseline, high.baseline).toFixed(2)]);
    for (const part of low.parts ?? []) {
      const other = high.parts?.find((p) => p.name === part.name);
      if (!other) continue;
      rows.push([`  ${part.name}`, format(part.figure), format(other.figure), part.unit, verdict(part.unit, part.figure, other.figure)]);
      if (part.baseline !== undefined && other.baseline !== undefined) {
        rows.push([`    baseline`, format(part.baseline), format(other.baseline), part.unit, slowdown(part.unit, part.baseline, other.baseline).toFixed(2)]);
      }
    }
    rows.push([`  peak RSS`, low.maxRssMb.toFixed(0), high.maxRssMb.toFixed(0), 'MB', '']);
  }
  const header = ['', `at ${count(seeded.low)}`, `at ${count(seeded.high)}`, 'unit', `slowdown (target ≤ ${GROWTH_TARGET})`];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  console.log(`\ngrowth: each figure with ${count(seeded.low)} and with ${count(seeded.high)} priced sessions of other administrations stored`);
  console.log('  (slowdown: how many times slower with more stored sessions, in time terms: a rate\'s low/high, a time\'s high/low)');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
chmodSync(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir, database: 'bench', ...(PG_STATEMENTS_TOP ? { settings: PG_STATEMENTS_SETTINGS } : {}) });
try {
  const orm = await openOrm(ormConfig(pg.url));
  await migrate(orm);
  await orm.close();
  await migrateJobQueue(pg.url);
  // Growth runs in a database of its own (a copy of the migrated one), so that what the other
  // benchmarks leave behind (the billing benchmark's million sessions) is not counted as stored.
  const growthUrl = pg.url.replace(/\/bench$/, '/bench_growth');
  if (growth.length) await ensureDatabase(pg.url.replace(/\/bench$/, '/postgres'), 'bench_growth', 'bench');

  const stats = PG_STATEMENTS_TOP ? await statementStats(pg.url, PG_STATEMENTS_TOP) : null;
  for (const name of standard) {
    console.log(`\n[${name}]`);
    await stats?.reset();
    const result = await runChild(name, pg.url);
    await stats?.print();
    await failLeftoverJobs(pg.url, name);
    if (result) printResult(result);
  }
  await stats?.close();

  if (growth.length) {
    const results = new Map(growth.map((name) => [name, { low: null as ChildResult | null, high: null as ChildResult | null }]));
    // What a growth benchmark seeds of its own is the same at both counts: only the stored sessions grow.
    const env = (stored: number) => ({
      BENCH_STORED_SESSIONS: String(stored), SVC_BENCH_BILLING_SESSIONS: String(GROWTH_BILLING_SESSIONS),
      BENCH_EXPORT_SESSIONS: String(GROWTH_EXPORT_SESSIONS),
    });
    for (const [phase, target] of [['low', GROWTH_LOW], ['high', GROWTH_HIGH]] as const) {
      const started = performance.now();
      const stored = await seedStoredSessions(growthUrl, target);
      console.log(`\ngrowth: ${count(stored)} priced sessions of other administrations stored (${((performance.now() - started) / 1000).toFixed(1)} s to seed)`);
      for (const name of growth) {
        console.log(`\n[${name}, growth, ${count(stored)} stored sessions]`);
        const result = await runChild(name, growthUrl, env(stored));
        await failLeftoverJobs(growthUrl, name);
        if (result) printResult(result);
        results.get(name)![phase] = result;
      }
    }
    printGrowth(results, { low: GROWTH_LOW, high: GROWTH_HIGH });
  }
} finally {
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures) {
  console.log(`\n${failures} benchmark run(s) failed`);
  process.exitCode = 1;
}
