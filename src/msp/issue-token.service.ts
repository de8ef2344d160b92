import { LockMode } from '@mikro-orm/core';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { Administration } from '../parties/administration.entity.ts';
import { evcoCheckDigit, evcoIdVariants, parseNewEvcoId } from './evco-id.ts';
import { assertUidFree, checkTokenUid, checkVin } from './save-token.service.ts';
import { existingBrandCode } from './token-brand.service.ts';
import { findTokenByEvcoId } from './token-lookup.ts';
import type { FormFactor, UidType } from './token-reference-data.ts';
import { TokenSeries } from './token-series.entity.ts';
import { Token } from './token.entity.ts';

export interface IssueTokenInput {
  admin: Administration;
  series?: TokenSeries | null;
  formFactor: FormFactor;
  uidType?: UidType | null;
  uid?: string | null;
  evcoId?: string | null;
  brandCode?: string | null;
  vehicleVin?: string | null;
  fulfilment?: 'none' | 'requested';
}

/**
 * How many numbers the range read below called free but the look-up found taken (in another spelling)
 * a series tries before giving up.
 */
const MAX_SKIPS = 100;
/** The numbers a series reads at once past a taken one. */
const WINDOW = 1000;

/**
 * The first number from `from` on that no token of the series' prefix holds as written (compact,
 * with or without check digit), reading the ids of the series' range a window at a time: a run of
 * numbers taken by hand is skipped in one read each thousand, not probed one by one (found by probing,
 * 2026-11-29: 101 ids another administration took by hand left a series "exhausted" for good).
 */
async function firstFreeFrom(em: Em, prefix: string, width: number, from: number): Promise<number> {
  const past = 10 ** width;
  for (let start = from; start < past; start += WINDOW) {
    const end = Math.min(start + WINDOW, past);
    const lo = `${prefix}${String(start).padStart(width, '0')}`;
    // The last window ends after the series' last number with any check character: its end written
    // with a digit more (…1101 of a 3-digit series) read as text below …150, and the ids between went unseen.
    const hi = end < past ? `${prefix}${String(end).padStart(width, '0')}` : `${prefix}${'9'.repeat(width)}ZZ`;
    const rows = await em.execute<{ evco_id: string }[]>(TAKEN_IN_RANGE, [lo, hi]);
    const taken = new Set(rows.map((row) => Number(row.evco_id.slice(prefix.length, prefix.length + width))));
    for (let n = start; n < end; n++) if (!taken.has(n)) return n;
  }
  return past;
}

const TAKEN_IN_RANGE = 'select evco_id::text as evco_id from msp_token where evco_id >= ? and evco_id < ?';

/**
 * Tokens are unique by country, provider and instance, with or without check digit, instance-wide.
 * The unique index compares the id as written: `…802` and `…802W` issued at once both passed the
 * look and were both stored. A lock per id in its shortest spelling (no separators, no check
 * character; its own class, after the backfill's 736400122), held by the caller's transaction,
 * makes the second look wait for the first issue's commit.
 */
async function evcoIdTaken(em: Em, evcoId: string): Promise<boolean> {
  if (em.isInTransaction()) {
    const [shortest] = evcoIdVariants(evcoId).map((v) => v.toUpperCase().replace(/[^A-Z0-9]/g, '')).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    await em.execute('select pg_advisory_xact_lock(736400123, hashtext(?))', [shortest]);
  }
  return (await findTokenByEvcoId(em, evcoId, { everyAdministration: true })) !== null;
}

/**
 * The series' next EVCO id (with check digit). The series row stays locked until the caller's
 * transaction ends, so concurrent issues get distinct numbers.
 */
async function nextSeriesEvcoId(em: Em, series: TokenSeries): Promise<string> {
  const row = await em.createQueryBuilder(TokenSeries).select('nextNumber').where({ id: series.id })
    .setLockMode(LockMode.PESSIMISTIC_WRITE).execute('get');
  // An unflushed issue in this unit of work may already have advanced the entity.
  let number = Math.max(Number((row as { nextNumber: number | string }).nextNumber), Number(series.nextNumber));
  const prefix = series.evcoPrefix.toUpperCase();
  const width = 14 - prefix.length;
  for (let skips = 0; ; skips++) {
    if (String(number).length > width || skips > MAX_SKIPS) {
      throw new DomainError('token_series_exhausted', `token series ${series.id} has no free number left`, { path: ['token_series_id'] });
    }
    const base = `${prefix}${String(number).padStart(width, '0')}`;
    const evcoId = base + evcoCheckDigit(base);
    if (!(await evcoIdTaken(em, evcoId))) {
      series.nextNumber = number + 1;
      return evcoId;
    }
    number = await firstFreeFrom(em, prefix, width, number + 1);
  }
}

/**
 * Creates a token (persisted, not flushed): with the evco_id given, or else the series' next
 * number. Run it inside em.transactional (the series' row and the id's lock are held to its commit).
 */
export async function issueToken(em: Em, input: IssueTokenInput): Promise<Token> {
  const series = input.series ?? null;
  let evcoId: string;
  if (input.evcoId != null) {
    evcoId = parseNewEvcoId(input.evcoId).compact;
    if (await evcoIdTaken(em, evcoId)) {
      throw new DomainError('duplicate', 'evco_id is already used by another token', { path: ['evco_id'] });
    }
  } else if (series) {
    evcoId = await nextSeriesEvcoId(em, series);
  } else {
    throw new InvalidInputError('evco_id or a token series is required', { path: ['evco_id'] });
  }
  const uidType = input.uidType ?? series?.uidType ?? null;
  const brandCode = input.brandCode ?? series?.brandCode ?? null;
  const uid = input.uid != null ? checkTokenUid(input.uid, uidType) : null;
  if (uid !== null) await assertUidFree(em, uid, input.formFactor === 'virtual');
  // An app token without a uid is published under its evco_id, which no other app token may have as uid.
  else if (input.formFactor === 'virtual') await assertUidFree(em, evcoId, true, undefined, ['evco_id']);
  const token = em.create(Token, {
    evcoId,
    uid,
    uidType,
    formFactor: input.formFactor,
    brandCode: brandCode === null ? null : await existingBrandCode(em, brandCode),
    series,
    initialAdmin: input.admin,
    currentAdmin: input.admin,
    fulfilment: input.fulfilment ?? 'none',
    vehicleVin: input.vehicleVin != null ? checkVin(input.vehicleVin) : null,
  });
  em.persist(token);
  return token;
}
