// A statement with bound parameters is prepared once per connection under a name from its text
// (src/platform/pg-client.ts): the same answers as unnamed, a failure does not leave a broken name
// behind, a rolled-back transaction does not lose it, a connection prepares at most 100, and a long
// text (a batch statement) goes unnamed.
import test from 'ava';
import { boundQuery } from '../../../src/platform/bound-sql.ts';
import { openOrm, type Orm } from '../../../src/platform/orm.ts';
import { NAMED_TEXT_MAX_LENGTH, preparedName } from '../../../src/platform/pg-client.ts';
import { ormConfig } from '../../../mikro-orm.config.ts';
import { freshDatabaseUrl } from '../../helpers/db.ts';

let orm: Orm;

test.before(async () => {
  // One connection: every statement of the file meets the statements prepared before it.
  orm = await openOrm(ormConfig(await freshDatabaseUrl(), { poolMax: 1 }));
});
test.after.always(() => orm?.close());

const prepared = async (): Promise<string[]> => (await boundQuery<{ name: string }>(orm.em.fork(), 'select name from pg_prepared_statements where name like $1 order by name', ['svc\\_%']))
  .map((row) => row.name);

test.serial('a statement is prepared once and answers as before, each call with its own values', async (t) => {
  const text = 'select $1::int + $2::int as n';
  for (const [a, b] of [[1, 2], [40, 2], [-5, 5]]) {
    t.deepEqual(await boundQuery(orm.em.fork(), text, [a, b]), [{ n: a + b }]);
  }
  t.true((await prepared()).includes(preparedName(text)!));
  t.is(preparedName(text), preparedName(text));
  t.not(preparedName(text), preparedName(`${text} `));
});

test.serial('a failing statement fails each time, and the connection goes on', async (t) => {
  const broken = 'select $1::int from from';
  for (let i = 0; i < 2; i++) await t.throwsAsync(boundQuery(orm.em.fork(), broken, [1]), { message: /syntax error/ });
  t.false((await prepared()).includes(preparedName(broken)!));
  const divide = 'select 10 / $1::int as n';
  await t.throwsAsync(boundQuery(orm.em.fork(), divide, [0]), { message: /division by zero/ });
  t.deepEqual(await boundQuery(orm.em.fork(), divide, [5]), [{ n: 2 }]);
});

test.serial('a statement prepared in a transaction rolled back stays usable', async (t) => {
  const text = 'select $1::text as v';
  await t.throwsAsync(orm.em.fork().transactional(async (tx) => {
    t.deepEqual(await boundQuery(tx, text, ['inside']), [{ v: 'inside' }]);
    throw new Error('roll back');
  }), { message: 'roll back' });
  t.deepEqual(await boundQuery(orm.em.fork(), text, ['after']), [{ v: 'after' }]);
  t.true((await prepared()).includes(preparedName(text)!));
});

test.serial('a text longer than the named ones (a batch statement growing with its rows) goes unnamed and answers the same', async (t) => {
  const values = Array.from({ length: 1500 }, (_, i) => i);
  const text = `select ${values.map((i) => `$${i + 1}::int`).join(' + ')} as n`;
  t.true(text.length > NAMED_TEXT_MAX_LENGTH);
  t.is(preparedName(text), undefined);
  const before = await prepared();
  t.deepEqual(await boundQuery(orm.em.fork(), text, values), [{ n: values.reduce((a, b) => a + b, 0) }]);
  t.deepEqual(await prepared(), before);
});

test.serial('a connection prepares at most 100 statements; the others go unnamed and answer the same', async (t) => {
  for (let i = 0; i < 120; i++) {
    t.deepEqual(await boundQuery(orm.em.fork(), `select $1::int * ${i} as n`, [2]), [{ n: 2 * i }]);
  }
  t.is((await prepared()).length, 100);
  t.deepEqual(await boundQuery(orm.em.fork(), 'select $1::int * 119 as n', [3]), [{ n: 357 }]);
});

test.serial('a table altered under a prepared statement fails it once; the next call prepares it on a new connection', async (t) => {
  // An ORM of its own: a connection that has not prepared 100 statements yet.
  const own = await openOrm(ormConfig(orm.config.get('clientUrl')!, { poolMax: 1 }));
  t.teardown(() => own.close());
  const em = () => own.em.fork();
  await boundQuery(em(), 'create table prepared_probe (id int primary key, name text)', []);
  await boundQuery(em(), "insert into prepared_probe values (1, 'one')", []);
  const text = 'select * from prepared_probe where id = $1';
  t.deepEqual(await boundQuery(em(), text, [1]), [{ id: 1, name: 'one' }]);
  // Another connection changes the columns the prepared statement answers.
  await orm.em.fork().getConnection().execute('alter table prepared_probe add column extra int');
  await t.throwsAsync(boundQuery(em(), text, [1]), { message: /cached plan must not change result type/ });
  t.deepEqual(await boundQuery(em(), text, [1]), [{ id: 1, name: 'one', extra: null }]);
});
