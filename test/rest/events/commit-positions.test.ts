// Commit positions taken side by side (migration `event_positions`): a position can show before a
// smaller one whose commit is still in progress, or never (its commit failed). Deliveries go up to
// the settled position only: a later position is not delivered before a smaller one still
// committing (which a cursor past it would lose), and a position that never shows stops nothing.
// A test trigger after the position holds a commit on a lock the test holds, or fails it.
import test from 'ava';
import pg from 'pg';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration, createCustomer, okCall } = await import('../../helpers/factories.ts');
const { startReceiver, until } = await import('../../helpers/webhook-receiver.ts');
const { deliverWebhooks } = await import('../../../src/webhooks/deliver-webhooks.service.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const HOLD_LOCK = 5150;
let app: TestApp;
let receiver: Receiver;
let db: pg.Client;
let admin: string;
test.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
  admin = (await createAdministration(app)).id;
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  // Named after svc_event_commit_order, so it runs after the position was taken.
  await db.query(`create function svc_test_commit_hold() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from svc_event e where e.tx_id = new.tx_id and e.data->>'name' = 'hold me') then
        perform pg_advisory_xact_lock(${HOLD_LOCK});
      end if;
      if exists (select 1 from svc_event e where e.tx_id = new.tx_id and e.data->>'name' = 'fail at commit') then
        raise exception 'failed at commit';
      end if;
      return null;
    end $$`);
  await db.query(`create constraint trigger svc_event_commit_test_hold after insert on svc_event_commit deferrable initially deferred
    for each row execute function svc_test_commit_hold()`);
});
test.after.always(async () => {
  await db?.query('drop trigger if exists svc_event_commit_test_hold on svc_event_commit').catch(() => {});
  await db?.end();
  await receiver?.close();
  await app?.close();
});

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const subscribe = (path: string) =>
  ok('POST', '/webhook-subscription', { url: `${receiver.url}${path}`, kinds: ['customer'], secret: 'whsec-0123456789abcdef', admin_ids: [admin] });

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function positionOf(resourceId: string): Promise<string | undefined> {
  const { rows } = await db.query(`select max(c.position)::text as position from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
    where e.resource_id = $1`, [resourceId]);
  return rows[0].position ?? undefined;
}

test.serial('a position whose commit failed, and one a crash skipped, stop no delivery', async (t) => {
  const customer = await createCustomer(app, admin, { name: 'Before' });
  await subscribe('/gaps');
  // A commit that fails after its position was taken.
  await db.query('begin');
  await db.query(`insert into svc_event (kind, resource_id, modification, admin_id, actor, data, occurred_at)
    values ('customer', $1, 'update', $2, 'test', '{"name": "fail at commit"}', now())`, [customer.id, admin]);
  await t.throwsAsync(db.query('commit'), { message: /failed at commit/ });
  // A position taken and never written (a crash loses those of the sequence's cache).
  await db.query(`select nextval('svc_event_position')`);
  await ok('POST', `/customer/${customer.id}`, { name: 'After the gaps' });
  await until(() => receiver.on('/gaps').length >= 1, 'the delivery after the gaps');
  await delay(200);
  t.deepEqual(receiver.on('/gaps').map((d) => d.body.data.name), ['After the gaps']);
});

test.serial('concurrent commits: each event delivered once, in position order, and the positions have no duplicate', async (t) => {
  await subscribe('/many');
  const created = await Promise.all(Array.from({ length: 40 }, (_, i) => createCustomer(app, admin, { name: `Concurrent ${i}` })));
  await until(() => receiver.on('/many').length >= 40, 'forty deliveries');
  await delay(200);
  const delivered = receiver.on('/many').map((d) => d.body.data.id as string);
  t.deepEqual([...delivered].sort(), created.map((c) => c.id).sort(), 'each once');
  const positions: (string | undefined)[] = [];
  for (const id of delivered) positions.push(await positionOf(id));
  t.deepEqual(positions, [...positions].sort((a, b) => (BigInt(a!) < BigInt(b!) ? -1 : 1)), 'in position order');
  t.is(new Set(positions).size, 40);
});

// Last: it stops the worker and runs the subscription's delivery itself.
test.serial('a commit still in progress holds back the later positions: all delivered, in position order', async (t) => {
  const [before, first, second] = await Promise.all(['Before', 'First', 'Second'].map((name) => createCustomer(app, admin, { name })));
  await app.stopWorker();
  const subscription = await subscribe('/held');
  // A waiting delivery job: the commits below find it and wake nobody (no job row to lock).
  await ok('POST', `/customer/${before.id}`, { name: 'Before, renamed' });
  const holder = new pg.Client({ connectionString: app.databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1)', [HOLD_LOCK]);
    // Takes its position, then waits at its commit.
    const held = ok('POST', `/customer/${first.id}`, { name: 'hold me' });
    await until(async () => (await db.query(`select count(*)::int as n from pg_locks where locktype = 'advisory'
      and objid = $1 and not granted`, [HOLD_LOCK])).rows[0].n >= 1, 'the first commit held');
    // A later commit takes the next position and shows first.
    await ok('POST', `/customer/${second.id}`, { name: 'Second, renamed' });
    const shown = await positionOf(second.id);
    const run = deliverWebhooks(app.orm, app.databaseUrl, subscription.id);
    await delay(500);
    t.deepEqual(receiver.on('/held'), [], 'nothing delivered while a smaller position is committing');
    await holder.query('commit');
    await held;
    await run;
    t.true(BigInt((await positionOf(first.id))!) < BigInt(shown!), 'the held commit took the smaller position');
  } finally {
    await holder.end();
  }
  t.deepEqual(receiver.on('/held').map((d) => d.body.data.name), ['Before, renamed', 'hold me', 'Second, renamed']);
});

// The commit order rests on one trigger: its condition marks a transaction's first event row (as the
// row is written) and queues it for the commit, once. A BEFORE trigger of its own (the one before
// migration `event_commit_mark`) cost a PL/pgSQL call a transaction.
test.serial('svc_event has exactly the trigger the commit order relies on', async (t) => {
  const { rows } = await db.query(`select tgname, tgtype & 2 = 2 as before, tgconstraint <> 0 as is_constraint, tgdeferrable, tginitdeferred
    from pg_trigger where tgrelid = 'svc_event'::regclass and not tgisinternal order by tgname`);
  t.deepEqual(rows, [
    { tgname: 'svc_event_commit_order', before: false, is_constraint: true, tgdeferrable: true, tginitdeferred: true },
  ]);
});

/** The commit rows of the transactions that wrote events of `resource`. */
async function commitsOf(resource: string): Promise<{ events: number; position: string | null }[]> {
  const { rows } = await db.query(`select count(*)::int as events, c.position::text as position from svc_event e
    left join svc_event_commit c on c.tx_id = e.tx_id where e.resource_id = $1 group by e.tx_id, c.position order by e.tx_id`, [resource]);
  return rows;
}

const insertEvents = (client: pg.Client, resource: string, count: number) => client.query(`insert into svc_event (kind, resource_id, modification, actor, data, occurred_at)
  select 'customer', $1::text, 'update', 'test', jsonb_build_object('id', $1::text, 'n', n), now() from generate_series(1, $2::int) n`, [resource, count]);

/** `work` in a transaction block of the test's connection, rolled back when it fails. */
async function inTransaction(work: () => Promise<unknown>): Promise<void> {
  await db.query('begin');
  try {
    await work();
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

test.serial('a transaction that writes events has one commit row with a position, however many statements and rows wrote them', async (t) => {
  await inTransaction(async () => {
    await insertEvents(db, 'tx-shape-1', 3);
    await insertEvents(db, 'tx-shape-1', 2);
  });
  const [both] = await commitsOf('tx-shape-1');
  t.deepEqual(await commitsOf('tx-shape-1'), [both], 'one transaction');
  t.is(both.events, 5);
  t.truthy(both.position);
  // One statement on its own (no transaction block).
  await insertEvents(db, 'tx-shape-2', 1);
  const [single] = await commitsOf('tx-shape-2');
  t.is(single.events, 1);
  t.true(BigInt(single.position!) > BigInt(both.position!), 'a later commit, a later position');
});

test.serial('events written after a savepoint rolled back the first ones still get their commit row', async (t) => {
  await inTransaction(async () => {
    await db.query('savepoint before_events');
    await insertEvents(db, 'tx-shape-3', 2);
    await db.query('rollback to savepoint before_events');
    await insertEvents(db, 'tx-shape-4', 1);
  });
  t.deepEqual(await commitsOf('tx-shape-3'), [], 'the rolled-back events are gone');
  const [kept] = await commitsOf('tx-shape-4');
  t.is(kept.events, 1);
  t.truthy(kept.position, 'the event written after the rollback has its commit');
});

test.serial('a transaction whose statements wrote no event has no commit row', async (t) => {
  let txId = '';
  await inTransaction(async () => {
    txId = (await db.query('select txid_current()::text as id')).rows[0].id;
    await insertEvents(db, 'tx-shape-5', 0);
    await db.query(`update svc_event set actor = actor where false`);
  });
  // Its own commit only: commits of the app's background work meanwhile do not count.
  t.is((await db.query('select count(*)::int as n from svc_event_commit where tx_id = $1::bigint', [txId])).rows[0].n, 0);
  t.deepEqual(await commitsOf('tx-shape-5'), []);
});
