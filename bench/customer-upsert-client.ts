// The load client of the customer-upsert benchmark, in a process of its own (not on the service's
// event loop, as every benchmark's HTTP load): POSTs /customer/ext_ref.<tag>-http-<i> for i in
// [0, count) over `concurrency` kept-alive connections (http-connection.ts); prints the rate of 200
// answers. `warmUp` customers (ext_ref.<tag>-warm-<i>) go first, not counted: the rate is the warm
// service's.
import { HttpConnection } from './http-connection.ts';

export interface UpsertJob { base: string; authorization: string; adminId: string; tag: string; count: number; warmUp: number; concurrency: number }
export interface UpsertResult { perSecond: number }

/** Upserts `count` customers named `<tag>-<kind>-<i>`; answers the seconds it took. */
async function upsertAll(job: UpsertJob, kind: string, count: number): Promise<number> {
  const base = new URL(job.base);
  const headers = [`Authorization: ${job.authorization}`, 'Content-Type: application/json'];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    const connection = new HttpConnection(base);
    while (next < count) {
      const i = next++;
      const body = JSON.stringify({ admin_id: job.adminId, name: `Customer ${i}`, country: 'NL', custom_fields: { n: i } });
      const answer = await connection.request('POST', `${base.pathname}/customer/ext_ref.${job.tag}-${kind}-${i}`, headers, body);
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    }
    connection.close();
  }));
  return (performance.now() - started) / 1000;
}

async function upsert(job: UpsertJob): Promise<UpsertResult> {
  await upsertAll(job, 'warm', job.warmUp);
  const perSecond = job.count / await upsertAll(job, 'http', job.count);
  return { perSecond };
}

if (process.argv[2] === '--child') {
  let input = '';
  process.stdin.on('data', (chunk) => { input += chunk; });
  await new Promise((resolve) => process.stdin.on('end', resolve));
  process.stdout.write(`${JSON.stringify(await upsert(JSON.parse(input) as UpsertJob))}\n`);
}
