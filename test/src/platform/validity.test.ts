// The boundaries of the one validity rule [valid_from, valid_until), in memory and in SQL on a
// real PostgreSQL. The SQL helpers run on a probe table of this test's own (both bounds
// nullable) and must pick exactly the rows the memory helpers pick.
import { defineEntity, p, type FilterQuery, type InferEntity } from '@mikro-orm/core';
import test from 'ava';
import fc from 'fast-check';
import { openOrm, type Orm } from '../../../src/platform/orm.ts';
import { ormConfig } from '../../../mikro-orm.config.ts';
import {
  intervalsOverlap, isContractValidAt, isCurrentlyValid, isLinkCurrentlyValid, isLinkOwnValidAt, isLinkUsableAt, isValidAt, linkInterval,
  notValidAt, overlapping, pinValidityNowForTests, validAt, validAtOpenStart, validityNow, type Validity,
} from '../../../src/platform/validity.ts';
import { freshDatabaseUrl } from '../../helpers/db.ts';

const at = (iso: string) => new Date(iso);
const ms = (date: Date, delta: number) => new Date(date.getTime() + delta);

const FROM = at('2026-03-01T10:00:00Z');
const UNTIL = at('2026-03-01T11:00:00Z');
const SPAN: Validity = { validFrom: FROM, validUntil: UNTIL };

test('valid at: valid_from inclusive, valid_until exclusive', (t) => {
  t.false(isValidAt(SPAN, ms(FROM, -1)), 'just before valid_from');
  t.true(isValidAt(SPAN, FROM), 'exactly at valid_from');
  t.true(isValidAt(SPAN, ms(UNTIL, -1)), 'just before valid_until');
  t.false(isValidAt(SPAN, UNTIL), 'exactly at valid_until');
});

test('valid at: a null bound is open', (t) => {
  t.true(isValidAt({ validFrom: FROM, validUntil: null }, at('9999-12-31T23:59:59.999Z')), 'valid_until null: open-ended');
  t.false(isValidAt({ validFrom: FROM, validUntil: null }, ms(FROM, -1)));
  t.true(isValidAt({ validFrom: null, validUntil: UNTIL }, at('1900-01-01T00:00:00Z')), 'valid_from null: since always');
  t.false(isValidAt({ validFrom: null, validUntil: UNTIL }, UNTIL));
  t.true(isValidAt({}, FROM), 'both absent: always');
});

test('overlap: touching intervals do not overlap, one shared millisecond does', (t) => {
  const next = { validFrom: UNTIL, validUntil: at('2026-03-01T12:00:00Z') };
  t.false(intervalsOverlap(SPAN, next), 'valid_until equal to the other valid_from');
  t.false(intervalsOverlap(next, SPAN), 'the same, the other way round');
  t.true(intervalsOverlap(SPAN, { validFrom: ms(UNTIL, -1), validUntil: null }));
  t.true(intervalsOverlap({ validFrom: ms(FROM, -60_000), validUntil: ms(FROM, 1) }, SPAN));
  t.true(intervalsOverlap(SPAN, { validFrom: ms(FROM, 1), validUntil: ms(UNTIL, -1) }), 'containment');
  t.true(intervalsOverlap(SPAN, SPAN), 'the same interval');
  t.false(intervalsOverlap(SPAN, { validFrom: null, validUntil: FROM }), 'valid_from null ending where the other starts');
  t.true(intervalsOverlap({ validFrom: null, validUntil: ms(FROM, 1) }, SPAN));
  t.true(intervalsOverlap({ validFrom: UNTIL, validUntil: null }, { validFrom: null, validUntil: null }), 'open on both sides');
});

// Intervals on a grid of whole milliseconds, each non-empty.
const grid = fc.tuple(fc.option(fc.integer({ min: 0, max: 20 })), fc.option(fc.integer({ min: 1, max: 20 })))
  .map(([from, length]): Validity => ({
    validFrom: from === null ? null : new Date(from),
    validUntil: length === null ? null : new Date((from ?? 0) + length),
  }));

test('overlap is exactly "some moment is valid in both", and symmetric', (t) => {
  fc.assert(fc.property(grid, grid, (a, b) => {
    let shared = false;
    for (let moment = -1; moment <= 41; moment += 1) shared ||= isValidAt(a, new Date(moment)) && isValidAt(b, new Date(moment));
    return intervalsOverlap(a, b) === shared && intervalsOverlap(b, a) === shared;
  }));
  t.pass();
});

const ValidityProbe = defineEntity({
  name: 'ValidityProbe',
  tableName: 'validity_probe',
  properties: {
    id: p.integer().primary(),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
  },
});

const ROWS: (Validity & { id: number })[] = [
  { id: 1, ...SPAN },
  { id: 2, validFrom: UNTIL, validUntil: at('2026-03-01T12:00:00Z') },
  { id: 3, validFrom: FROM, validUntil: null },
  { id: 4, validFrom: ms(UNTIL, -1), validUntil: UNTIL },
  { id: 5, validFrom: null, validUntil: FROM },
  { id: 6, validFrom: null, validUntil: null },
  { id: 7, validFrom: at('2026-02-01T00:00:00Z'), validUntil: FROM },
];
const WITH_FROM = ROWS.filter((row) => row.validFrom);
const MOMENTS = [ms(FROM, -1), FROM, ms(FROM, 1), ms(UNTIL, -1), UNTIL, ms(UNTIL, 1), at('1900-01-01T00:00:00Z'), at('9999-01-01T00:00:00Z')];

let orm: Orm;
test.before(async () => {
  orm = await openOrm(ormConfig(await freshDatabaseUrl(), { poolMax: 2 }));
  orm.discoverEntity(ValidityProbe);
  const em = orm.em.fork();
  await em.getConnection().execute('create table validity_probe (id int primary key, valid_from timestamptz null, valid_until timestamptz null)');
  await em.getConnection().execute(
    `insert into validity_probe (id, valid_from, valid_until) values ${ROWS.map(() => '(?, ?, ?)').join(', ')}`,
    ROWS.flatMap((row) => [row.id, row.validFrom ?? null, row.validUntil ?? null]),
  );
});
test.after.always(async () => {
  await orm?.close();
});

async function ids(where: FilterQuery<InferEntity<typeof ValidityProbe>>): Promise<number[]> {
  const rows = await orm.em.fork().find(ValidityProbe, where, { orderBy: { id: 'asc' } });
  return rows.map((row) => row.id);
}
/** The helpers without "valid_from may be null" are for columns that are NOT NULL. */
const withFrom = (where: FilterQuery<InferEntity<typeof ValidityProbe>>) => ids({ $and: [{ validFrom: { $ne: null } }, where] });
const idsOf = (rows: (Validity & { id: number })[], keep: (row: Validity) => boolean) => rows.filter(keep).map((row) => row.id);

test('SQL valid at: the boundaries', async (t) => {
  t.deepEqual(await ids(validAt(ms(FROM, -1))), [7], 'just before valid_from: only the interval that ends at it');
  t.deepEqual(await ids(validAt(FROM)), [1, 3], 'exactly at valid_from; the interval ending there is out');
  t.deepEqual(await ids(validAt(UNTIL)), [2, 3], 'exactly at valid_until: out, the next one in');
  t.deepEqual(await ids(validAtOpenStart(FROM)), [1, 3, 6], 'valid_from null: since always');
  t.deepEqual(await ids(validAtOpenStart(ms(FROM, -1))), [5, 6, 7]);
});

test('SQL valid at and not valid at pick what the memory rule picks', async (t) => {
  for (const moment of MOMENTS) {
    const label = moment.toISOString();
    t.deepEqual(await withFrom(validAt(moment)), idsOf(WITH_FROM, (row) => isValidAt(row, moment)), `validAt ${label}`);
    t.deepEqual(await withFrom(notValidAt(moment)), idsOf(WITH_FROM, (row) => !isValidAt(row, moment)), `notValidAt ${label}`);
    t.deepEqual(await ids(validAtOpenStart(moment)), idsOf(ROWS, (row) => isValidAt(row, moment)), `validAtOpenStart ${label}`);
  }
});

test('SQL overlapping: touching intervals do not overlap', async (t) => {
  t.deepEqual(await withFrom(overlapping(UNTIL, null)), [2, 3]);
  t.deepEqual(await withFrom(overlapping(at('2026-01-01T00:00:00Z'), FROM)), [7]);
  const spans: [Date, Date | null][] = [[FROM, UNTIL], [ms(UNTIL, -1), UNTIL], [UNTIL, null], [ms(FROM, -1), FROM], [at('1900-01-01T00:00:00Z'), null]];
  for (const [from, until] of spans) {
    t.deepEqual(await withFrom(overlapping(from, until)),
      idsOf(WITH_FROM, (row) => intervalsOverlap(row, { validFrom: from, validUntil: until })), `${from.toISOString()} .. ${until?.toISOString()}`);
  }
});

test('a link is valid from its own start or its contract\'s, until the earlier end, never when either is defunct', (t) => {
  const contract = { validFrom: FROM, validUntil: UNTIL, defunct: false };
  const own = { validFrom: ms(FROM, 1000), validUntil: null, defunct: false };
  t.true(isLinkUsableAt({ validFrom: null, validUntil: null, defunct: false }, contract, FROM), 'defers to the contract start');
  t.false(isLinkUsableAt(own, contract, FROM), 'before its own start');
  t.true(isLinkUsableAt(own, contract, ms(FROM, 1000)));
  t.false(isLinkUsableAt(own, contract, UNTIL), 'the contract ended (exclusive)');
  t.true(isLinkUsableAt(own, contract, ms(UNTIL, -1)));
  t.false(isLinkUsableAt({ ...own, defunct: true }, contract, ms(UNTIL, -1)));
  t.false(isLinkUsableAt(own, { ...contract, defunct: true }, ms(UNTIL, -1)));
  t.false(isLinkUsableAt({ ...own, validUntil: ms(FROM, 2000) }, contract, ms(FROM, 2000)), 'the link ended (exclusive)');
});

test('a contract is valid when not defunct and in its interval; a link alone in its own interval', (t) => {
  const contract = { validFrom: FROM, validUntil: UNTIL, defunct: false };
  t.true(isContractValidAt(contract, FROM));
  t.false(isContractValidAt(contract, UNTIL));
  t.false(isContractValidAt({ ...contract, defunct: true }, FROM));
  t.true(isContractValidAt({ validFrom: null, validUntil: null, defunct: false }, FROM), 'an authorization without bounds');
  t.deepEqual(linkInterval({ validFrom: null, validUntil: null }, contract), { validFrom: FROM, validUntil: null });
  const after = { validFrom: null, validUntil: null, defunct: false };
  t.true(isLinkOwnValidAt(after, contract, ms(UNTIL, 1000)), 'the link alone: the contract\'s end does not count');
  t.false(isLinkUsableAt(after, contract, ms(UNTIL, 1000)));
  t.false(isLinkOwnValidAt(after, contract, ms(FROM, -1)), 'before the contract\'s start it defers to');
});

test.serial('currently valid: the same rule at validityNow(), which a test can pin exactly to a bound', (t) => {
  const contract = { validFrom: FROM, validUntil: UNTIL, defunct: false };
  const link = { validFrom: null, validUntil: null, defunct: false };
  try {
    pinValidityNowForTests(FROM);
    t.is(validityNow().getTime(), FROM.getTime());
    t.true(isCurrentlyValid(contract), 'valid_from exactly now');
    t.true(isLinkCurrentlyValid(link, contract));
    pinValidityNowForTests(UNTIL);
    t.false(isCurrentlyValid(contract), 'valid_until exactly now');
    t.false(isLinkCurrentlyValid(link, contract));
  } finally {
    pinValidityNowForTests(null);
  }
  const before = Date.now();
  const now = validityNow().getTime();
  t.true(now >= before && now <= Date.now(), 'unpinned: the clock');
});
