// The load generators of the auth-flood benchmark, each in a process of its own (not on the
// service's event loop): `legit` sends GETs with the right secret over kept-alive connections
// (http-connection.ts) and reports its throughput; `flood` sends wrong secrets (half for a known public id, half for random ids) until stopped.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { HttpConnection } from './http-connection.ts';

export interface LegitJob { kind: 'legit'; url: string; authorization: string; concurrency: number; durationMs: number }
export interface FloodJob { kind: 'flood'; url: string; knownPublicId: string; connections: number }
export interface LegitResult { requests: number; seconds: number; maxLatencyMs: number }
export type FloodResult = Record<string, number>;

function basic(publicId: string, secret: string): string {
  return `Basic ${Buffer.from(`${publicId}:${secret}`).toString('base64')}`;
}

function get(agent: http.Agent, url: URL, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, headers: { authorization } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

async function legit(job: LegitJob): Promise<LegitResult> {
  const url = new URL(job.url);
  const path = `${url.pathname}${url.search}`;
  const headers = [`Authorization: ${job.authorization}`];
  const started = performance.now();
  const until = started + job.durationMs;
  let requests = 0;
  let maxLatencyMs = 0;
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    const connection = new HttpConnection(url);
    while (performance.now() < until) {
      const sent = performance.now();
      const { status } = await connection.request('GET', path, headers);
      if (status !== 200) throw new Error(`the legitimate client got HTTP ${status}`);
      maxLatencyMs = Math.max(maxLatencyMs, performance.now() - sent);
      requests++;
    }
    connection.close();
  }));
  return { requests, seconds: (performance.now() - started) / 1000, maxLatencyMs };
}

async function flood(job: FloodJob, stopped: Promise<void>): Promise<FloodResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const url = new URL(job.url);
  const statuses: FloodResult = {};
  let stop = false;
  void stopped.then(() => { stop = true; });
  process.stdout.write('flooding\n');
  await Promise.all(Array.from({ length: job.connections }, async (_, i) => {
    while (!stop) {
      const publicId = i % 2 === 0 ? job.knownPublicId : `flood-${randomBytes(6).toString('hex')}`;
      const status = await get(agent, url, basic(publicId, randomBytes(12).toString('base64url'))).catch(() => 0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }));
  agent.destroy();
  return statuses;
}

if (process.argv[2] === '--child') {
  let input = '';
  process.stdin.on('data', (chunk) => { input += chunk; });
  // The flood runs until its stdin closes; the legit client for its duration.
  const ended = new Promise<void>((resolve) => process.stdin.on('end', resolve));
  const firstLine = await new Promise<string>((resolve) => {
    const check = () => { const newline = input.indexOf('\n'); if (newline >= 0) resolve(input.slice(0, newline)); };
    process.stdin.on('data', check);
    process.stdin.on('end', () => resolve(input));
  });
  const job = JSON.parse(firstLine) as LegitJob | FloodJob;
  const result = job.kind === 'legit' ? await legit(job) : await flood(job, ended);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
