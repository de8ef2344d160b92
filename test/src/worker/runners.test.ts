// Session processing runs in a runner of its own: a main-runner job that takes long (here one that
// waits for a table lock the test holds) does not hold up pricing.
import test from 'ava';
import pg from 'pg';
import { COMMAND_TIMEOUT } from '../../../src/ocpi/command-timeout.ts';
import { processed, sessionBody, startPricedApp, submitSession } from '../../helpers/session-factories.ts';

test('a session is priced while the main runner is stuck in a long job', async (t) => {
  const { app, evcoId } = await startPricedApp();
  const holder = new pg.Client({ connectionString: app.databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('lock table msp_roaming_command in access exclusive mode');
    await app.orm.em.getConnection().execute(`select graphile_worker.add_job(?, json_build_object('command_id', gen_random_uuid()::text))`, [COMMAND_TIMEOUT]);
    // The main runner has taken the job and waits for the lock.
    for (let waited = 0; ; waited += 25) {
      const [row] = await app.orm.em.getConnection().execute<{ waiting: boolean }[]>(
        `select exists (select 1 from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'msp_roaming_command' and not l.granted) as waiting`);
      if (row!.waiting) break;
      if (waited > 10_000) t.fail('the main runner never took the job');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const { id } = await submitSession(app, sessionBody(evcoId));
    const session = await processed(app, id, 10_000);
    t.is(session.status, 'priced');
    const [job] = await app.orm.em.getConnection().execute<{ locked: boolean }[]>(
      'select locked_at is not null as locked from graphile_worker.jobs where task_identifier = ?', [COMMAND_TIMEOUT]);
    t.true(job!.locked, 'the long job was still running');
  } finally {
    await holder.query('rollback').catch(() => {});
    await holder.end();
    await app.close();
  }
});
