// Seek pagination (decisions.md "Pagination"): items strictly after `after` by the endpoint's
// key, page_size clamped to 1..1000, created_gt alone on a first request, link_next + Link.
import type { Context } from 'koa';
import { DomainError } from '../../src/platform/errors.ts';
import { SeekList } from '../../src/platform/seek-page.ts';
import { OFFSET_MAX_PAGE } from '../../src/platform/offset-page.ts';
import { t, type Field, type Infer } from './shape.ts';
import { parseTimestamp, TIMESTAMP_FORMAT } from '../../src/platform/timestamp.ts';

export const DEFAULT_PAGE_SIZE = 500;
export const MAX_PAGE_SIZE = 1000;

/** The envelope of a seek-paged list. */
export const seekPageOf = <T>(item: Field<T>) => t.object({
  items: t.array(item),
  page_size: t.integer('The applied page size.'),
  link_next: t.optional(t.string('Relative URI of the next page; absent on the last page.')),
});
export type Page<T> = Infer<ReturnType<typeof seekPageOf<T>>>;

/** The envelope of an offset-paged list (App API). */
export const offsetPageOf = <T>(item: Field<T>) => t.object({
  items: t.array(item), page: t.integer(), page_size: t.integer(), has_next_page: t.boolean(),
});
export type OffsetPage<T> = Infer<ReturnType<typeof offsetPageOf<T>>>;

/** A list that is not paged: every item in one answer. */
export const listOf = <T>(item: Field<T>) => t.object({ items: t.array(item) });

export function parsePageSize(raw: string | undefined, fallback = DEFAULT_PAGE_SIZE, max = MAX_PAGE_SIZE): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new DomainError('invalid_query', 'page_size must be an integer', { queryParam: 'page_size' });
  return Math.min(max, Math.max(1, Number(raw)));
}

function linkNext(path: string, after: string, pageSize: number, filters: Record<string, string>): string {
  const params = new URLSearchParams({ ...filters, after, page_size: String(pageSize) });
  return `${path}?${params.toString()}`;
}

export interface SeekPageOptions<E extends object, T> {
  /** Query-string values of the request (filters are carried into link_next). */
  rawQuery: Record<string, string>;
  /** Path as the client called it, e.g. /main/v1/customer. */
  path: string;
  createdGt?: boolean;
  /** The list from the resource's queries module. */
  list: SeekList<any>;
  serialize(item: any): T;
}

/** The REST face of the seek-paging engine (src/platform/seek-page.ts). */
export async function seekPage<E extends object, T>(ctx: Context, options: SeekPageOptions<E, T>): Promise<Page<T>> {
  const { rawQuery, path, list } = options;

  if (rawQuery.created_gt !== undefined) {
    if (!options.createdGt) {
      throw new DomainError('invalid_query', 'created_gt is not offered by this endpoint', { queryParam: 'created_gt' });
    }
    if (Object.keys(rawQuery).length > 1) {
      throw new DomainError('invalid_query', 'created_gt cannot be combined with other parameters', { queryParam: 'created_gt' });
    }
    const moment = parseTimestamp(rawQuery.created_gt);
    if (!moment) throw new DomainError('invalid_query', `created_gt must be ${TIMESTAMP_FORMAT}`, { queryParam: 'created_gt' });
    // A feed's first item below its horizon, as its pages (SeekList.firstCreatedAfter): none yet is a not_found to ask again.
    const first = await list.firstCreatedAfter(moment);
    if (first === null) throw new DomainError('not_found', 'nothing created after that moment is listed yet', { queryParam: 'created_gt' });
    const pageSize = DEFAULT_PAGE_SIZE;
    const next = linkNext(path, first, pageSize, {});
    ctx.set('Link', `<${next}>; rel="next"`);
    return { items: [], page_size: pageSize, link_next: next };
  }

  const pageSize = parsePageSize(rawQuery.page_size);
  const after = rawQuery.after;
  if (after !== undefined && !(await list.has(after))) {
    throw new DomainError('not_found', 'after does not name an item of this list', { queryParam: 'after' });
  }
  const rows = await list.page({ after, limit: pageSize + 1 });
  const hasMore = rows.length > pageSize;
  const items = rows.slice(0, pageSize);
  const page: Page<T> = { items: items.map((item) => options.serialize(item)), page_size: pageSize };
  if (hasMore) {
    const filters = Object.fromEntries(Object.entries(rawQuery).filter(([name]) => name !== 'after' && name !== 'page_size'));
    page.link_next = linkNext(path, list.keyOf(items[items.length - 1]), pageSize, filters);
    ctx.set('Link', `<${page.link_next}>; rel="next"`);
  }
  return page;
}

/** `page` (from 1) and `page_size` (default 50, clamped to 1..200) of the App API's offset paging. */
export function parseOffsetRange(rawQuery: Record<string, string>): { page: number; pageSize: number } {
  const raw = rawQuery.page;
  if (raw !== undefined && (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > OFFSET_MAX_PAGE)) {
    throw new DomainError('invalid_query', 'page must be an integer from 1', { queryParam: 'page' });
  }
  return { page: raw === undefined ? 1 : Number(raw), pageSize: parsePageSize(rawQuery.page_size, 50, 200) };
}

/** The offset page envelope. */
export function offsetPage<S, T>(range: { page: number; pageSize: number }, result: { items: S[]; hasNextPage: boolean }, serialize: (item: S) => T): OffsetPage<T> {
  return { items: result.items.map(serialize), page: range.page, page_size: range.pageSize, has_next_page: result.hasNextPage };
}
