// Closing an ORM while one of its statements is still taking a new connection ends, and so does the
// statement (src/platform/pool-closing.ts). Before, a connection that arrived once the pool was
// ending stayed checked out for good: the close never ended, nor the test process (a job kick left
// behind by a request's answer, at the end of a test file).
import test from 'ava';
import { openOrm, openRequestOrm, type Orm } from '../../../src/platform/orm.ts';
import { ormConfig } from '../../../mikro-orm.config.ts';
import { freshDatabaseUrl } from '../../helpers/db.ts';

let url: string;
test.before(async () => { url = await freshDatabaseUrl(); });

const within = <T>(promise: Promise<T>, ms: number, what: string) => Promise.race([
  promise,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms).unref()),
]);

const turns = (n: number) => Array.from({ length: n }).reduce<Promise<void>>((p) => p.then(() => new Promise((resolve) => setImmediate(resolve))), Promise.resolve());

for (const [name, open] of [
  ['the ORM of requests', (u: string) => openRequestOrm(ormConfig(u, { poolMax: 2 }), 5000)],
  ['an ORM of the worker or the CLI', (u: string) => openOrm(ormConfig(u, { poolMax: 2 }))],
] as const) {
  test(`${name} closes while a statement is taking a new connection, and the statement ends`, async (t) => {
    // The close comes after 0 to 24 turns of the event loop: before the statement asks for a connection,
    // while the connection is being made (1 turn hung the close here), and after the statement was answered.
    for (const wait of [0, 1, 2, 3, 4, 6, 9, 14, 24]) {
      const orm: Orm = await open(url);
      const statement = orm.em.fork().execute('select 1 as one').then((rows) => rows[0]?.one, (error: Error) => error.message);
      await turns(wait);
      await within(orm.close(), 5000, `the close after ${wait} turns`);
      t.not(await within(statement, 5000, `the statement closed after ${wait} turns`), undefined);
    }
  });
}
