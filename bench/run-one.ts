// One benchmark in a process of its own: `node bench/run-one.ts <name> <databaseUrl>` (bench/run.ts
// starts one per benchmark). Its lines go to stdout as they come; its result, with the peak resident
// memory of this process (the service side: the app, its worker thread, the benchmark's own seeding;
// not the load clients some benchmarks start, which are processes of their own), is one JSON line
// written to the file descriptor BENCH_RESULT_FD names (the parent's pipe), else to stdout after `result: `.
import { writeSync } from 'node:fs';
import { benchmarks, type BenchmarkResult } from './benchmarks.ts';

export interface ChildResult extends BenchmarkResult { maxRssMb: number; seconds: number }

const [name, databaseUrl] = process.argv.slice(2);
const entry = benchmarks[name];
if (!entry || !databaseUrl) {
  console.error(`usage: node bench/run-one.ts <${Object.keys(benchmarks).join('|')}> <databaseUrl>`);
  process.exit(2);
}

const started = performance.now();
const result = await (await entry.load())(databaseUrl);
// maxRSS is in kilobytes: the peak of this process over its whole life.
const child: ChildResult = { ...result, maxRssMb: process.resourceUsage().maxRSS / 1024, seconds: (performance.now() - started) / 1000 };
const line = `${JSON.stringify(child)}\n`;
if (process.env.BENCH_RESULT_FD) writeSync(Number(process.env.BENCH_RESULT_FD), line);
else process.stdout.write(`result: ${line}`);
// A benchmark leaves nothing running that matters; a handle left open must not hold up the run.
process.exit(0);
