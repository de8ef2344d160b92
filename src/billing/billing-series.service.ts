// Billing series of an administration: create (extension) and merge-update. Creating a series, or
// changing the sources it bills, bills what was priced before a series billed it (a backfill job
// added in the same transaction; the worker bills in batches).
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { formerShortForm, prefixesClash, referenceLetters, referencePrefixes, usedShortForm } from './document/creditor-reference.ts';
import { BillingBox } from './billing-box.entity.ts';
import { BillingSeries, DOCUMENT_SOURCES, PRIMARY_DOCUMENT_TYPES, type DocumentSource, type PrimaryDocumentType } from './billing-series.entity.ts';
import { ensureBuiltInCategories } from './product-category.service.ts';
import { getSeries } from './billing-series.queries.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import { BILLING_BACKFILL, backfillJobKey } from './billing-backfill-job.ts';
import { recordBackfillPending } from './billing-backfill.service.ts';
import { lockSeriesNumbering } from './document-number.ts';

export interface SeriesInput {
  adminId?: string | null;
  code?: string | null;
  name?: string | null;
  externalReference?: string | null;
  primaryDocumentType?: string | null;
  documentSource?: string | null;
  itemSources?: string[] | null;
}

const UNIQUE = { billing_series_external_reference_unique: ['external_reference'], billing_series_admin_id_code_unique: ['code'] };
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$/;

function apply(series: BillingSeries, input: SeriesInput): void {
  if (input.code !== undefined) {
    if (!input.code || !CODE.test(input.code)) throw new InvalidInputError('code must be 1 to 20 letters, digits, _ . or -', { path: ['code'] });
    series.code = input.code;
  }
  if (input.name !== undefined) series.name = input.name;
  if (input.externalReference !== undefined) series.externalReference = input.externalReference;
  if (input.primaryDocumentType !== undefined) {
    if (!input.primaryDocumentType || !(PRIMARY_DOCUMENT_TYPES as readonly string[]).includes(input.primaryDocumentType)) {
      throw new InvalidInputError(`primary_document_type must be one of ${PRIMARY_DOCUMENT_TYPES.join(', ')}`, { path: ['primary_document_type'] });
    }
    series.primaryDocumentType = input.primaryDocumentType as PrimaryDocumentType;
  }
  if (input.documentSource !== undefined) {
    if (!input.documentSource || !(DOCUMENT_SOURCES as readonly string[]).includes(input.documentSource)) {
      throw new InvalidInputError(`document_source must be one of ${DOCUMENT_SOURCES.join(', ')}`, { path: ['document_source'] });
    }
    series.documentSource = input.documentSource as DocumentSource;
  }
  if (input.itemSources !== undefined) series.itemSources = input.itemSources ?? [];
}

/**
 * Which documents a series issues is fixed once it issued one: an external system's invoice codes
 * and the service's numbers would meet (found by probing, 2026-11-29: after a switch to the service,
 * every finalize drew number 1, the external box's code, and failed: the series could issue nothing).
 */
async function assertDocumentSourceKept(em: Em, series: BillingSeries, input: SeriesInput): Promise<void> {
  if (input.documentSource === undefined || input.documentSource === series.documentSource) return;
  const issued = await em.count(BillingBox, { series, state: 'finalized' }, { filters: false });
  if (issued > 0) {
    throw new DomainError('invalid_state', `the series issued ${issued} document(s) from ${series.documentSource}: its document_source stays`, { path: ['document_source'] });
  }
}

/**
 * One series' save at a time per administration (a class of its own after the fees' 736400125): a new
 * series' short number is its position by creation, and the references check below reads the others.
 */
async function lockSeriesOf(tx: Em, adminId: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(736400131, hashtext(lower(?::text)))', [adminId]);
}

/** The administration's series with their short numbers (document-number.ts: position by creation) and highest number taken. */
const SERIES_OF_ADMIN = `select s.id, s.code, row_number() over (order by s.created_at, s.id)::int as n,
    (select max(c.last_number) from billing_number_counter c where c.series_id = s.id) as highest
  from billing_series s where s.admin_id = ?`;

/**
 * No two documents of an administration share a payment reference (document/creditor-reference.ts):
 * the series' code, flushed, must not give reference prefixes that clash with another series' (a code,
 * a short form, or the bare number a series' documents carried as short form before 2026-11-29); nor
 * read as another's with its separators left out (`AB` and `A-B`). The administration's series lock is held.
 */
async function assertReferencesDistinct(tx: Em, series: BillingSeries): Promise<void> {
  const rows = await tx.execute<{ id: string; code: string; n: number; highest: number | null }[]>(SERIES_OF_ADMIN, [series.admin.id]);
  const me = rows.find((row) => row.id === series.id)!;
  const mine = referencePrefixes(me.code, me.n);
  const refuse = (what: string) => new DomainError('duplicate', `code ${me.code} could give the payment reference of a document of ${what}: `
    + 'a reference is the code\'s letters and digits (or the series\' short form S<n>Y), the year and the number', { path: ['code'] });
  if (mine.length === 2 && prefixesClash(mine[0], mine[1])) throw refuse(`its own series under the short form ${mine[1]}`);
  for (const other of rows.filter((row) => row.id !== series.id)) {
    const theirs = referencePrefixes(other.code, other.n);
    if (other.highest !== null && usedShortForm(other.code, other.highest)) theirs.push(formerShortForm(other.n));
    if (referenceLetters(other.code) === referenceLetters(me.code) || mine.some((a) => theirs.some((b) => prefixesClash(a, b)))) {
      throw refuse(`series ${other.code}`);
    }
  }
}

/**
 * A series whose code numbered documents keeps it: another series could take it and issue those numbers
 * again. The series' numbering is locked (lockSeriesNumbering): a number taken before is committed and seen here.
 */
async function assertCodeUnused(tx: Em, series: BillingSeries): Promise<void> {
  const [{ used }] = await tx.execute<{ used: boolean }[]>('select exists (select 1 from billing_number_counter where series_id = ?) as used', [series.id]);
  if (used) throw new DomainError('invalid_state', 'the series has issued documents under its code: the code stays', { path: ['code'] });
}

/** The administration's backfill, in the transaction of the series' change (backfill-sources.ts: every source's earlier subjects). */
async function addBackfill(tx: Em, adminId: string): Promise<void> {
  await addFollowUpJob(tx, BILLING_BACKFILL, { admin_id: adminId }, { jobKey: backfillJobKey(adminId), jobKeyMode: 'replace' });
  await recordBackfillPending(tx, adminId);
}

export async function createSeries(em: Em, input: SeriesInput) {
  const id = await em.transactional(async (tx) => {
    const admin = await visibleAdministration(tx, input.adminId);
    if (!input.code) throw new InvalidInputError('code is required', { path: ['code'] });
    // Before the series is made: its creation time places it after every series of the administration.
    await lockSeriesOf(tx, admin.id);
    const series = tx.create(BillingSeries, { admin, code: input.code, primaryDocumentType: 'invoice', documentSource: 'service', itemSources: [] });
    apply(series, input);
    await flushUnique(tx, UNIQUE);
    await assertReferencesDistinct(tx, series);
    await ensureBuiltInCategories(tx, admin.id);
    await addBackfill(tx, admin.id);
    return series.id;
  });
  return getSeries(em, id);
}

export async function updateSeries(em: Em, ref: string, input: SeriesInput) {
  const current = await getSeries(em, ref);
  await em.transactional(async (tx) => {
    const series = await tx.findOneOrFail(BillingSeries, { id: current.id });
    const sources = JSON.stringify(series.itemSources);
    const code = series.code;
    if (input.documentSource !== undefined && input.documentSource !== series.documentSource) {
      // Under the series' numbering lock, as a finalize: none issues a document meanwhile.
      await lockSeriesNumbering(tx, series.id);
      await assertDocumentSourceKept(tx, series, input);
    }
    apply(series, { ...input, adminId: undefined });
    if (series.code !== code) {
      await lockSeriesOf(tx, series.admin.id);
      await lockSeriesNumbering(tx, series.id);
      await assertCodeUnused(tx, series);
    }
    await flushUnique(tx, UNIQUE);
    if (series.code !== code) await assertReferencesDistinct(tx, series);
    // A series that now bills other sources bills what they priced before, as a new series does.
    if (JSON.stringify(series.itemSources) !== sources) await addBackfill(tx, series.admin.id);
  });
  return getSeries(em, current.id);
}
