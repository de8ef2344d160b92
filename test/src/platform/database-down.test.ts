// PostgreSQL stopped under a running service: 503 with Retry-After on REST and GraphQL, one log
// line when it goes and one when it is back, nothing on stderr, and 200 again without a restart.
import { rmSync } from 'node:fs';
import test from 'ava';
import { startEmbeddedPostgres } from '../../../src/platform/embedded-postgres.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../../src/platform/database-health.ts';
import { readConfig } from '../../../src/platform/config.ts';
import { startService } from '../../../src/service.ts';
import { tempDataDir } from '../../helpers/process.ts';

const auth = { authorization: `Basic ${Buffer.from('boot:boot-secret-123456').toString('base64')}` };

async function until<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await attempt();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

test('database stopped: 503 with Retry-After on REST and GraphQL, one line each way, back to 200 by itself', async (t) => {
  const dataDir = tempDataDir();
  let pg = await startEmbeddedPostgres({ dataDir, fast: true });
  const lines: string[] = [];
  const service = await startService({ ...readConfig({ SVC_DEMO: '0', PORT: '0', SVC_DATA_DIR: dataDir }), databaseUrl: pg.url, bootstrapCredential: { publicId: 'boot', secret: 'boot-secret-123456' } }, (line) => lines.push(line));
  t.teardown(async () => {
    await service.stop();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const rest = () => fetch(`${service.url}/main/v1/customer`, { headers: auth });
  const graphql = (query: string, headers = auth) => fetch(`${service.url}/graphql`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }),
  });
  t.is((await rest()).status, 200);
  lines.length = 0;

  const stderr: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => { stderr.push(String(chunk)); return true; }) as typeof process.stderr.write;
  t.teardown(() => { process.stderr.write = write; });
  await pg.stop();

  for (let i = 0; i < 3; i++) {
    const listed = await rest();
    t.is(listed.status, 503);
    t.is(listed.headers.get('retry-after'), String(RETRY_AFTER_SECONDS));
    t.deepEqual(await listed.json(), { code: 'service_unavailable', message: 'the database is unavailable; retry later' });

    const unknownCaller = await fetch(`${service.url}/main/v1/customer`, { headers: { authorization: `Basic ${Buffer.from('someone:else-secret-1234').toString('base64')}` } });
    t.is(unknownCaller.status, 503, 'authentication needs the database too');

    const queried = await graphql('{ customers(first: 1) { edges { node { id } } } }');
    t.is(queried.status, 503);
    t.is(queried.headers.get('retry-after'), String(RETRY_AFTER_SECONDS));
    t.is((await queried.json()).errors[0].extensions.code, 'SERVICE_UNAVAILABLE');

    const unauthenticated = await graphql('{ __typename }', { authorization: `Basic ${Buffer.from('someone:else-secret-1234').toString('base64')}` });
    t.is(unauthenticated.status, 503);
    t.is(unauthenticated.headers.get('retry-after'), String(RETRY_AFTER_SECONDS));
    t.is((await unauthenticated.json()).errors[0].extensions.code, 'SERVICE_UNAVAILABLE');
  }
  t.is(lines.length, 1, lines.join('\n'));
  t.regex(lines[0]!, /database unavailable \(.+\): answering 503 until it is back/);

  pg = await startEmbeddedPostgres({ dataDir, fast: true, port: pg.port });
  await until('REST answers 200', async () => ((await rest()).status === 200 ? true : undefined));
  t.is((await graphql('{ customers(first: 1) { edges { node { id } } } }')).status, 200);
  await until('the log says it is back', async () => (lines.length === 2 ? true : undefined));
  t.regex(lines[1]!, /database is back \(unavailable for \d+ s\)/);
  t.deepEqual(stderr, [], 'no stack traces, no error per request, none from the session worker');
});

test('connection failures are recognised, other database errors are not', (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  for (const error of [
    coded('ECONNREFUSED'), coded('ECONNRESET'), coded('57P01'), coded('08006'), coded('08001'),
    new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect'),
    new Error('wrapped', { cause: coded('ECONNREFUSED') }), new AggregateError([coded('ECONNREFUSED')], 'all failed'),
  ]) t.true(isDatabaseUnavailable(error), String(error));
  for (const error of [coded('23505', 'duplicate key'), coded('22P02'), new Error('boom'), null, 'ECONNREFUSED']) {
    t.false(isDatabaseUnavailable(error), String(error));
  }
});
