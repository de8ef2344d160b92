// The client of the graphql-boxes benchmark, in a process of its own (not on the service's event
// loop): fetches the same boxes, roll-ups and sessions by one GraphQL query and by REST calls
// (the box list, then each box's sessions, `concurrency` at a time as a browser would), in
// alternating rounds, and reports each round's time and what each transport returned.
import http from 'node:http';

export interface BoxesJob {
  url: string;
  authorization: string;
  graphql: { query: string; variables: Record<string, unknown> };
  /** GET path of the REST box list. */
  restList: string;
  /** GET path of a box's sessions, `{id}` for the box. */
  restSessions: string;
  concurrency: number;
  warmupRounds: number;
  rounds: number;
}

/** Ids seen by a transport: boxes, roll-ups and session items (item → its box's roll-up and session). */
export interface Seen { boxes: string[]; rollups: string[]; items: string[]; bytes: number; requests: number }

export interface BoxesResult { graphqlMs: number[]; restMs: number[]; graphql: Seen; rest: Seen }

function send(agent: http.Agent, url: URL, authorization: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    const request = http.request(url, { agent, method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) reject(new Error(`${url.pathname}: HTTP ${response.statusCode} ${text.slice(0, 300)}`));
        else resolve(text);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function viaGraphql(job: BoxesJob, agent: http.Agent): Promise<Seen> {
  const text = await send(agent, new URL('/graphql', job.url), job.authorization, JSON.stringify(job.graphql));
  const body = JSON.parse(text);
  if (body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors).slice(0, 500)}`);
  const boxes = body.data.billingBoxes.edges.map((e: any) => e.node);
  const rollups = boxes.flatMap((b: any) => b.rollups);
  return {
    boxes: boxes.map((b: any) => b.databaseId),
    rollups: rollups.map((r: any) => r.databaseId),
    items: rollups.flatMap((r: any) => r.items.map((i: any) => `${i.databaseId} ${r.databaseId} ${i.chargeSession?.databaseId}`)),
    bytes: Buffer.byteLength(text),
    requests: 1,
  };
}

async function viaRest(job: BoxesJob, agent: http.Agent): Promise<Seen> {
  const listText = await send(agent, new URL(job.restList, job.url), job.authorization);
  const boxes = JSON.parse(listText).items as any[];
  let bytes = Buffer.byteLength(listText);
  const sessions: string[][] = [];
  let next = 0;
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    while (next < boxes.length) {
      const index = next++;
      let path: string | null = job.restSessions.replace('{id}', boxes[index].id);
      sessions[index] = [];
      while (path) {
        const text = await send(agent, new URL(path, job.url), job.authorization);
        bytes += Buffer.byteLength(text);
        const page = JSON.parse(text);
        sessions[index].push(...page.items.map((i: any) => `${i.item_id} ${i.rollup_id} ${i.msp_charge_session_id}`));
        path = page.link_next ?? null;
      }
    }
  }));
  return {
    boxes: boxes.map((b) => b.id),
    rollups: boxes.flatMap((b) => b.rollups.map((r: any) => r.id)),
    items: sessions.flat(),
    bytes,
    requests: 1 + boxes.length,
  };
}

async function run(job: BoxesJob): Promise<BoxesResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const graphql = await viaGraphql(job, agent);
  const rest = await viaRest(job, agent);
  const graphqlMs: number[] = [];
  const restMs: number[] = [];
  const timed = async (fetch: () => Promise<unknown>) => {
    const started = performance.now();
    await fetch();
    return performance.now() - started;
  };
  for (let round = 0; round < job.warmupRounds + job.rounds; round++) {
    // Alternating which goes first, so that neither always follows the other's garbage.
    const order = round % 2 === 0 ? ['graphql', 'rest'] : ['rest', 'graphql'];
    for (const which of order) {
      const ms = await timed(() => (which === 'graphql' ? viaGraphql(job, agent) : viaRest(job, agent)));
      if (round >= job.warmupRounds) (which === 'graphql' ? graphqlMs : restMs).push(ms);
    }
  }
  agent.destroy();
  return { graphqlMs, restMs, graphql, rest };
}

if (process.argv.includes('--child')) {
  let input = '';
  process.stdin.on('data', (chunk) => { input += chunk; });
  process.stdin.on('end', async () => {
    try {
      process.stdout.write(`${JSON.stringify(await run(JSON.parse(input) as BoxesJob))}\n`);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  });
}
