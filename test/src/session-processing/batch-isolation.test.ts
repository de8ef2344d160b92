// A processing batch the database refuses because of what one session's rows hold: its sessions
// are taken again one at a time, so that session alone drops out (pricing_failed) and every other
// is priced. Before, the batch failed at every retry and no session behind it was ever priced. A
// transient refusal (a serialization failure) or one of the database itself isolates nothing: the
// batch is retried as it is. The test makes the database refuse one session's rows with a trigger.
import test from 'ava';
import pg from 'pg';
import { processSessionBatch } from '../../../src/session-processing/process-sessions.service.ts';
import { type TestApp } from '../../helpers/app.ts';
import { startPricedApp, pricingResults, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let evcoId: string;
let db: pg.Client;
test.before(async () => {
  ({ app, evcoId } = await startPricedApp());
  // The test runs the batches itself.
  await app.stopWorker();
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await app?.close();
});

/** Until dropped: `table`'s rows of the session `sessionId` (its submitted id) are refused with `sqlstate` (a session's row once processing changes its status). */
async function refuse(table: 'msp_pricing_result' | 'msp_charge_session', sessionId: string, sqlstate: string): Promise<() => Promise<void>> {
  const name = `refuse_${table}_${sqlstate}`.toLowerCase();
  const refused = table === 'msp_pricing_result' ? `(select session_id from msp_charge_session where id = new.session_id) = '${sessionId}'`
    : `new.session_id = '${sessionId}' and new.status <> 'received'`;
  await db.query(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if ${refused} then raise exception 'refused by the test' using errcode = '${sqlstate}'; end if;
      return new;
    end $$`);
  await db.query(`create trigger ${name} before insert or update on ${table} for each row execute function ${name}()`);
  return async () => { await db.query(`drop trigger ${name} on ${table}; drop function ${name}()`); };
}

async function session(id: string) {
  return (await app.request('GET', `/main/v1/msp-charge-session/${id}`)).body;
}

async function submitThree(name: string) {
  const bodies = [1, 2, 3].map((i) => sessionBody(evcoId, { session_id: `${name}-${i}` }));
  const stored = [];
  for (const body of bodies) stored.push((await submitSession(app, body)).id);
  return stored;
}

test.serial('a batch refused for one session\'s rows: that session drops out as pricing_failed, the others are priced', async (t) => {
  const [first, bad, last] = await submitThree('ISOLATE');
  const allow = await refuse('msp_pricing_result', 'ISOLATE-2', '23514');
  try {
    t.is(await processSessionBatch(app.orm, 500), 3);
  } finally {
    await allow();
  }
  for (const id of [first, last]) {
    t.is((await session(id)).status, 'priced');
    t.is((await pricingResults(app, id)).length, 1);
  }
  const dropped = await session(bad);
  t.is(dropped.status, 'dropout');
  t.is(dropped.dropout_reason, 'pricing_failed');
  t.regex(dropped.dropout_message, /refused by the test/);
  const dropoutCase = (await app.request('GET', `/main/v1/msp-dropout-case/${dropped.dropout_case_id}`)).body;
  t.is(dropoutCase.reason, 'pricing_failed');
  t.is(dropoutCase.session_count, 1);
  t.is(await processSessionBatch(app.orm, 500), 0, 'nothing waits any more');
});

test.serial('a session whose drop-out is refused too waits, and holds up no other', async (t) => {
  const [first, bad, last] = await submitThree('STUCK');
  const allow = await refuse('msp_charge_session', 'STUCK-2', '23514');
  try {
    t.is(await processSessionBatch(app.orm, 500), 3);
    t.is(await processSessionBatch(app.orm, 500), 0, 'the refused session is not claimed again at once');
  } finally {
    await allow();
  }
  t.is((await session(first)).status, 'priced');
  t.is((await session(last)).status, 'priced');
  t.is((await session(bad)).status, 'received');
});

test.serial('a batch of one session refused: it drops out too (the oldest session would be claimed first again and again)', async (t) => {
  const id = (await submitSession(app, sessionBody(evcoId, { session_id: 'ALONE-1' }))).id;
  const allow = await refuse('msp_pricing_result', 'ALONE-1', '22003');
  try {
    t.is(await processSessionBatch(app.orm, 500), 1);
  } finally {
    await allow();
  }
  t.like(await session(id), { status: 'dropout', dropout_reason: 'pricing_failed' });
});

// A serialization failure is the database's moment; an undefined column (a failed upgrade) fails every session alike.
for (const [kind, sqlstate] of [['transient (serialization failure)', '40001'], ['of the database itself (undefined column)', '42703']]) {
  test.serial(`a refusal ${kind} drops nothing out: the batch is retried as it is`, async (t) => {
    const ids = await submitThree(`KEPT-${sqlstate}`);
    const allow = await refuse('msp_pricing_result', `KEPT-${sqlstate}-2`, sqlstate);
    try {
      await t.throwsAsync(() => processSessionBatch(app.orm, 500), { message: /refused by the test/ });
    } finally {
      await allow();
    }
    for (const id of ids) t.is((await session(id)).status, 'received');
    t.is(await processSessionBatch(app.orm, 500), 3);
    for (const id of ids) t.is((await session(id)).status, 'priced');
  });
}
