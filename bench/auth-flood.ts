// A legitimate client's requests per second (GET /administration, the right secret) alone, and
// while 40 connections from the same address send wrong secrets, half of them for the client's
// own public id, half for random ids (loopback: the flood and the client share one address).
// Each round runs on a fresh app (every flood starts unthrottled, scrypt onset included), and the
// order of the two phases alternates, so that other load on the machine falls on both alike.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp } from '../rest/app.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { openOrm, type Orm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { FloodJob, FloodResult, LegitJob, LegitResult } from './auth-flood-client.ts';
import type { BenchmarkResult } from './run.ts';
import { runId } from './run-tag.ts';

const ROUNDS = Number(process.env.BENCH_AUTH_ROUNDS ?? 2);
const PHASE_MS = Number(process.env.BENCH_AUTH_SECONDS ?? 10) * 1000;
const LEGIT_CONCURRENCY = 8;
const FLOOD_CONNECTIONS = 40;
const CREDENTIAL = runId('bench-legit');
const AUTHORIZATION = `Basic ${Buffer.from(`${CREDENTIAL}:bench-secret-1234`).toString('base64')}`;

interface Client { input: NodeJS.WritableStream; lines: string[]; started: Promise<void>; exited: Promise<void> }

function startClient(job: LegitJob | FloodJob): Client {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./auth-flood-client.ts', import.meta.url)), '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let output = '';
  let onFirstLine = () => {};
  const started = new Promise<void>((resolve) => { onFirstLine = resolve; });
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const parts = output.split('\n');
    output = parts.pop()!;
    lines.push(...parts);
    if (lines.length) onFirstLine();
  });
  child.stdin.write(`${JSON.stringify(job)}\n`);
  const exited = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the ${job.kind} client failed (${code})`)))));
  return { input: child.stdin, lines, started, exited };
}

async function runLegit(url: string, durationMs: number): Promise<LegitResult> {
  const client = startClient({ kind: 'legit', url, authorization: AUTHORIZATION, concurrency: LEGIT_CONCURRENCY, durationMs });
  client.input.end();
  await client.exited;
  return JSON.parse(client.lines.at(-1)!) as LegitResult;
}

async function round(orm: Orm, aloneFirst: boolean): Promise<{ alone: LegitResult; underFlood: LegitResult; flood: FloodResult }> {
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1/administration`;
  await runLegit(url, 300);
  const duringFlood = async () => {
    const flooder = startClient({ kind: 'flood', url, knownPublicId: CREDENTIAL, connections: FLOOD_CONNECTIONS });
    await flooder.started;
    const result = await runLegit(url, PHASE_MS);
    flooder.input.end();
    await flooder.exited;
    return { result, flood: JSON.parse(flooder.lines.at(-1)!) as FloodResult };
  };
  // Odd rounds measure the client alone first, even ones the flood first (it is throttled for a minute after).
  let alone: LegitResult | undefined;
  if (aloneFirst) alone = await runLegit(url, PHASE_MS);
  const { result: underFlood, flood } = await duringFlood();
  alone ??= await runLegit(url, PHASE_MS);
  server.close();
  server.closeAllConnections();
  return { alone, underFlood, flood };
}

export async function authFloodBenchmark(databaseUrl: string): Promise<BenchmarkResult> {
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 16 }));
  await createAdministration(scopedEm(orm), { id: runId('bench-auth'), name: 'Bench auth', currency: 'EUR', country: 'NL' });
  await saveCredential(scopedEm(orm), { publicId: CREDENTIAL, secret: 'bench-secret-1234' });
  const rate = (r: LegitResult) => r.requests / r.seconds;
  let alone = 0;
  let underFlood = 0;
  for (let i = 1; i <= ROUNDS; i++) {
    const result = await round(orm, i % 2 === 1);
    alone += rate(result.alone) / ROUNDS;
    underFlood += rate(result.underFlood) / ROUNDS;
    const statuses = Object.entries(result.flood).map(([status, n]) => `${n}× ${status}`).join(', ');
    console.log(`  round ${i}: alone ${rate(result.alone).toFixed(0)}/s (max latency ${result.alone.maxLatencyMs.toFixed(0)} ms),`
      + ` under flood ${rate(result.underFlood).toFixed(0)}/s (max latency ${result.underFlood.maxLatencyMs.toFixed(0)} ms); flood answers: ${statuses}`);
  }
  await orm.close();
  return {
    name: 'legitimate client during a wrong-secret flood', unit: 'requests/s', figure: underFlood,
    baseline: alone, baselineLabel: 'the same client alone',
  };
}
