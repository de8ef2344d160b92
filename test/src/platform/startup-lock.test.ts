// Processes started at once against one database (replicas after a deploy) take turns for the
// start-up work that writes shared rows: the migrations, the job queue's schema, the bootstrap
// credential. Both start; the migrations are applied once.
import test from 'ava';
import pg from 'pg';
import { emptyDatabaseUrl } from '../../helpers/db.ts';
import { exited, startServiceProcess } from '../../helpers/process.ts';

test('two service processes started at once on an empty database both start, and migrate it once', async (t) => {
  t.timeout(180_000, 'two processes migrate a database from nothing');
  const env = { DATABASE_URL: await emptyDatabaseUrl(), SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: 'ops:startup-lock-secret-secret' };
  const started = await Promise.allSettled([startServiceProcess(env), startServiceProcess(env)]);
  try {
    t.deepEqual(started.map((s) => (s.status === 'rejected' ? String(s.reason).slice(0, 2000) : 'started')), ['started', 'started']);
    const [first] = started.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const response = await fetch(`${first!.url}/main/v1/administration`, { headers: { authorization: `Basic ${Buffer.from('ops:startup-lock-secret-secret').toString('base64')}` } });
    t.is(response.status, 200);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('select name, count(*)::int as n from mikro_orm_migrations group by name having count(*) > 1');
      t.deepEqual(rows, [], 'each migration applied once');
    } finally {
      await client.end();
    }
  } finally {
    for (const s of started) {
      if (s.status !== 'fulfilled') continue;
      s.value.child.kill('SIGTERM');
      await exited(s.value.child);
    }
  }
});
