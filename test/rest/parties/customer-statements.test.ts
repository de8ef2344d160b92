// A customer write is a few statements (README "Latest figures", customers): a create one statement
// (src/events/insert-created.ts), an update its locked read and its flush; its event is recorded
// with its data, rendered from the values written, in the same transaction, and that data is what
// GET answers right after.
import test from 'ava';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { countQueries } from '../../helpers/sql-count.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  // The credential's secret is remembered after its first request.
  await app.request('GET', '/main/v1/customer');
});
test.after.always(async () => { await app?.close(); });

async function eventData(resourceId: string): Promise<{ modification: string; data: unknown }[]> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    return (await client.query(`select modification, data from svc_event where kind = 'customer' and resource_id = $1 order by id`, [resourceId])).rows;
  } finally { await client.end(); }
}

async function counted(method: string, path: string, body: unknown): Promise<{ answer: any; statements: string[] }> {
  let answer: any;
  const statements = await countQueries(app.orm, async () => { answer = await app.request(method, path, { body }); });
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { answer: answer.body, statements };
}

test.serial('a create by ext_ref and a merge-update: their statements, and each event holds what GET answers right after', async (t) => {
  const create = await counted('POST', '/main/v1/customer/ext_ref.S-1', { admin_id: adminId, name: 'Ada', country: 'nl', custom_fields: { n: 1, b: true } });
  t.log(`create ${create.statements.length}:\n${create.statements.join('\n')}`);
  const afterCreate = (await app.request('GET', `/main/v1/customer/${create.answer.id}`)).body;
  t.deepEqual(create.answer, afterCreate);
  t.deepEqual((await eventData(create.answer.id)).map((e) => e.data), [afterCreate]);

  const update = await counted('POST', '/main/v1/customer/ext_ref.s-1', { name: 'Ada L.', custom_fields: { n: 2, b: null }, billing_email: 'ada@example.com' });
  t.log(`update ${update.statements.length}:\n${update.statements.join('\n')}`);
  const afterUpdate = (await app.request('GET', `/main/v1/customer/${create.answer.id}`)).body;
  t.deepEqual(update.answer, afterUpdate);
  const events = await eventData(create.answer.id);
  t.deepEqual(events.map((e) => e.modification), ['create', 'update']);
  t.deepEqual(events[1].data, afterUpdate);
  t.is(afterUpdate.name, 'Ada L.');

  t.is(create.statements.length, 1, 'a create is the row and its event in one statement');
  t.true(update.statements.length <= 5, `an update is ${update.statements.length} statements`);
});
