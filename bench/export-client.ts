// The client of the export benchmark, in a process of its own (not on the services' event loop):
// pages through seek-paged lists by the `link_next` of each answer's envelope until there is
// none, then times their first and last page (median of a few fetches of each). The lists are
// walked in lockstep (a page of one, then the same page of the next), so that a busy machine
// weighs on each alike; each one's time is the sum of its own fetches.
import http from 'node:http';

export interface WalkJob { urls: string[]; authorization: string; latencyFetches: number }
export interface WalkResult {
  rows: number; pages: number; seconds: number;
  /** The URL of the last page (the link_next that led to it). */
  lastUrl: string;
  firstPageMs: number; lastPageMs: number;
}

function get(agent: http.Agent, url: string, authorization: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, headers: { authorization } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${response.statusCode} ${text.slice(0, 300)}`));
        else resolve(text);
      });
    });
    request.on('error', reject);
    request.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Lane { agent: http.Agent; origin: string; next: string | undefined; result: WalkResult; ms: number; first: number[]; last: number[] }

/** One page fetched and read as the envelope; its time in ms. */
async function fetchPage(lane: Lane, url: string, authorization: string): Promise<{ ms: number; page: { items: unknown[]; link_next?: string } }> {
  const started = performance.now();
  const page = JSON.parse(await get(lane.agent, url, authorization)) as { items: unknown[]; link_next?: string };
  return { ms: performance.now() - started, page };
}

async function walk(job: WalkJob): Promise<WalkResult[]> {
  const lanes: Lane[] = job.urls.map((url) => ({
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), origin: new URL(url).origin, next: url, ms: 0, first: [], last: [],
    result: { rows: 0, pages: 0, seconds: 0, lastUrl: url, firstPageMs: 0, lastPageMs: 0 },
  }));
  while (lanes.some((lane) => lane.next)) {
    for (const lane of lanes) {
      if (!lane.next) continue;
      const { ms, page } = await fetchPage(lane, lane.next, job.authorization);
      lane.ms += ms;
      lane.result.rows += page.items.length;
      lane.result.pages++;
      lane.result.lastUrl = lane.next;
      lane.next = page.link_next === undefined ? undefined : lane.origin + page.link_next;
    }
  }
  for (let i = 0; i < job.latencyFetches; i++) {
    for (const lane of lanes) {
      lane.first.push((await fetchPage(lane, job.urls[lanes.indexOf(lane)], job.authorization)).ms);
      lane.last.push((await fetchPage(lane, lane.result.lastUrl, job.authorization)).ms);
    }
  }
  return lanes.map((lane) => {
    lane.agent.destroy();
    return { ...lane.result, seconds: lane.ms / 1000, firstPageMs: median(lane.first), lastPageMs: median(lane.last) };
  });
}

if (process.argv[2] === '--child') {
  let input = '';
  process.stdin.on('data', (chunk) => { input += chunk; });
  await new Promise((resolve) => process.stdin.on('end', resolve));
  process.stdout.write(`${JSON.stringify(await walk(JSON.parse(input) as WalkJob))}\n`);
}
