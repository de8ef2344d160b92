// Every operation of the OpenAPI document, called with hostile input: never a 5xx, a param or
// query_param on every input error, and a rejected write leaves the database as it was.
// `npm test` runs a few thousand requests with a fixed seed; `npm run test:fuzz` many more with a
// random one (SVC_FUZZ_RUNS; SVC_FUZZ_SEED repeats a run, its seed is in the test log).
import fc from 'fast-check';
import pg from 'pg';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { databaseFingerprint } from '../helpers/db-fingerprint.ts';
import { createAdministration, createCustomer, createEndUser, createTokenSubscription, insertToken } from '../helpers/factories.ts';
import { operationsOf, requestOf, type FuzzRequest, type Operation } from '../helpers/fuzz/openapi-requests.ts';

const RUNS = Number(process.env.SVC_FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.SVC_FUZZ_SEED ?? (process.env.SVC_FUZZ_RANDOM ? Math.floor(Math.random() * 2 ** 31) : 20261123));

/** Input errors name what was wrong (decisions.md "Errors"); a path segment has no param to name. */
const NEEDS_PARAM = new Set(['validation_failed', 'invalid_query', 'invalid_json', 'invalid_utf8', 'body_too_large',
  'unsupported_content_type', 'invalid_input', 'removed_parameter']);

let app: TestApp;
let db: pg.Client;
let operations: Operation[];
const known: Record<string, string[]> = {};

test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  const admin = await createAdministration(app);
  const customer = await createCustomer(app, admin.id);
  const subscription = await createTokenSubscription(app, admin.id);
  const token = await insertToken(app, admin.id);
  const endUser = await createEndUser(app, admin.id);
  known.id = [customer.id, subscription.id, endUser.id, `ext_ref.${customer.external_reference}`];
  known.customer_id = [customer.id];
  known.end_user_id = [endUser.id];
  known.evco_id = [token.evcoId];
  known.code = ['FUZZ'];
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  operations = operationsOf((await app.request('GET', '/main/v1/openapi.json')).body);
});
test.after.always(async () => {
  await db?.end();
  await app?.close();
});

interface Failure { request: FuzzRequest; problem: string }

async function run(request: FuzzRequest, state: { fingerprint: string }): Promise<string | null> {
  const response = await app.request(request.method, request.path, { raw: request.raw, headers: request.headers });
  if (request.method !== 'GET') {
    const now = await databaseFingerprint(db);
    const changed = now !== state.fingerprint;
    state.fingerprint = now;
    if (changed && response.status >= 300) return `status ${response.status} but the database changed`;
  }
  if (response.status >= 500) return `status ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`;
  if (response.status === 400) {
    const body = response.body as Record<string, unknown>;
    if (typeof body?.code !== 'string' || typeof body.message !== 'string') return `400 without code/message: ${String(response.body).slice(0, 200)}`;
    const aboutPath = / \(in the path\)/.test(body.message);
    if (NEEDS_PARAM.has(body.code) && !aboutPath && body.param === undefined && body.query_param === undefined) return `400 ${body.code} without param: ${body.message}`;
  }
  return null;
}

const tags = () => [...new Set(operations.map((op) => op.path.split('/')[1]))];

test.serial('hostile requests to every operation: no 5xx, a param on input errors, rejected writes change nothing', async (t) => {
  t.timeout(Math.max(120_000, RUNS * 200));
  const perOperation = Math.max(3, Math.ceil(RUNS / operations.length));
  const failures: Failure[] = [];
  const state = { fingerprint: await databaseFingerprint(db) };
  let sent = 0;
  for (const [i, operation] of operations.entries()) {
    const requests = fc.sample(requestOf(operation, known), { numRuns: perOperation, seed: SEED + i });
    for (const request of requests) {
      sent += 1;
      const problem = await run(request, state);
      if (problem) failures.push({ request, problem });
    }
  }
  t.log(`${sent} requests over ${operations.length} operations (${tags().length} resources), seed ${SEED}`);
  const shown = failures.slice(0, 25).map((f) => `${f.request.operationId} ${f.request.method} ${f.request.note.slice(0, 200)}\n    -> ${f.problem}`);
  t.deepEqual(shown, [], `${failures.length} failures`);
});
