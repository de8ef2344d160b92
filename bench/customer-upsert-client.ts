// The load client of the customer-upsert benchmark, in a process of its own (not on the service's
// event loop, as every benchmark's HTTP load): POSTs /customer/ext_ref.<tag>-http-<i> for i in
// [0, count) over `concurrency` kept-alive connections; prints the rate of 200 answers. `warmUp`
// customers (ext_ref.<tag>-warm-<i>) go first, not counted: the rate is the warm service's.
import http from 'node:http';

export interface UpsertJob { base: string; authorization: string; adminId: string; tag: string; count: number; warmUp: number; concurrency: number }
export interface UpsertResult { perSecond: number }

function post(agent: http.Agent, url: URL, authorization: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      agent, method: 'POST', headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Upserts `count` customers named `<tag>-<kind>-<i>`; answers the seconds it took. */
async function upsertAll(agent: http.Agent, job: UpsertJob, kind: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const body = JSON.stringify({ admin_id: job.adminId, name: `Customer ${i}`, country: 'NL', custom_fields: { n: i } });
      const answer = await post(agent, new URL(`${job.base}/customer/ext_ref.${job.tag}-${kind}-${i}`), job.authorization, body);
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.text}`);
    }
  }));
  return (performance.now() - started) / 1000;
}

async function upsert(job: UpsertJob): Promise<UpsertResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  await upsertAll(agent, job, 'warm', job.warmUp);
  const perSecond = job.count / await upsertAll(agent, job, 'http', job.count);
  agent.destroy();
  return { perSecond };
}

if (process.argv[2] === '--child') {
  let input = '';
  process.stdin.on('data', (chunk) => { input += chunk; });
  await new Promise((resolve) => process.stdin.on('end', resolve));
  process.stdout.write(`${JSON.stringify(await upsert(JSON.parse(input) as UpsertJob))}\n`);
}
