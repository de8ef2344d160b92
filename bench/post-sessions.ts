// The load generator of the ingest benchmark, in a process of its own (a client is not part of
// the service's event loop): POSTs `count` sessions with `concurrency` keep-alive connections and
// writes the POSTs' latencies (ms, sorted) as one JSON line on stdout.
import http from 'node:http';

export interface PostJob { url: string; authorization: string; count: number; concurrency: number; sessions: string[] }

async function post(agent: http.Agent, url: URL, authorization: string, body: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks)}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

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
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const url = new URL(job.url);
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    while (next < job.count) {
      const i = next++;
      const started = performance.now();
      await post(agent, url, job.authorization, job.sessions[i]);
      latencies.push(performance.now() - started);
    }
  }));
  agent.destroy();
  process.stdout.write(`${JSON.stringify(latencies.sort((a, b) => a - b))}\n`);
}
