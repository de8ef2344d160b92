// Commit positions taken side by side (migration `event_positions`): a position can show before a
// smaller one whose commit is still in progress, or never (its commit failed). Deliveries go up to
// the settled position only: a later position is not delivered before a smaller one still
// committing (which a cursor past it would lose), and a position that never shows stops nothing.
// A test trigger after the position holds a commit on a lock the test holds, or fails it.
import test from 'ava';
import pg from 'pg';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration, createCustomer } = await import('../../helpers/factories.ts');
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

async function ok(method: string, path: string, body?: unknown) {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

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

// svc_event_mark_first marks the first row *before* it is inserted: a BEFORE trigger after it (by
// name) that skipped a row would leave the mark on a row never written, and the transaction's
// events without a commit row, never delivered. Its triggers are the ones the order was built on.
test.serial('svc_event has exactly the triggers the commit order relies on', async (t) => {
  const { rows } = await db.query(`select tgname, tgtype & 2 = 2 as before, tgconstraint <> 0 as is_constraint, tgdeferrable, tginitdeferred
    from pg_trigger where tgrelid = 'svc_event'::regclass and not tgisinternal order by tgname`);
  t.deepEqual(rows, [
    { tgname: 'svc_event_commit_order', before: false, is_constraint: true, tgdeferrable: true, tginitdeferred: true },
    { tgname: 'svc_event_mark_first', before: true, is_constraint: false, tgdeferrable: false, tginitdeferred: false },
  ]);
});
