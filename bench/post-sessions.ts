// The load generator of the ingest benchmark, in a process of its own (a client is not part of
// the service's event loop): POSTs `count` sessions over `concurrency` kept-alive connections
// (http-connection.ts) and writes the POSTs' latencies (ms, sorted) as one JSON line on stdout.
import { HttpConnection } from './http-connection.ts';

export interface PostJob { url: string; authorization: string; count: number; concurrency: number; sessions: string[] }

/** The value below which `p` of the sorted values lie (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

if (process.argv[2] === '--child') {
  const job = JSON.parse(await new Promise<string>((resolve) => {
    let text = '';
    process.stdin.on('data', (chunk) => { text += chunk; });
    process.stdin.on('end', () => resolve(text));
  })) as PostJob;
  const url = new URL(job.url);
  const headers = [`Authorization: ${job.authorization}`, 'Content-Type: application/json'];
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    const connection = new HttpConnection(url);
    while (next < job.count) {
      const i = next++;
      const started = performance.now();
      const answer = await connection.request('POST', url.pathname, headers, job.sessions[i]);
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
      latencies.push(performance.now() - started);
    }
    connection.close();
  }));
  process.stdout.write(`${JSON.stringify(latencies.sort((a, b) => a - b))}\n`);
}
