// OCPI 2.2.1 paging of GET lists (part "Transport and format", pagination): offset and limit
// (at most MAX_LIMIT), date_from and date_to on last_updated; the answer carries X-Total-Count,
// X-Limit and, when more items follow, Link: <next page URL>; rel="next" (on our base URL, as in
// versions). The next page's URL also names the place of the page's last item (`after`: its
// last_updated and id), where the next page starts: an item that changes while a client pages moves
// behind it, and none is skipped.
import type { Context } from 'koa';
import { OCPI_DATE_TIME_FORMAT, ocpiDateTime } from '../../src/ocpi/date-time.ts';
import { OcpiError, OCPI_STATUS } from '../../src/ocpi/errors.ts';
import { ourUrls } from '../../src/ocpi/ocpi-settings.ts';
import type { OcpiPageQuery, OcpiPosition } from '../../src/ocpi/tokens.queries.ts';
import { isUuid } from '../../src/platform/ids.ts';
import { parseTimestamp } from '../../src/platform/timestamp.ts';
import { originOf, queryOf } from './ocpi-router.ts';

export const MAX_LIMIT = 100;

function wholeNumber(query: Record<string, string>, name: string, fallback: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new OcpiError(OCPI_STATUS.invalidParameters, `${name} must be a whole number`, 400);
  return Number(raw);
}

/** An OCPI DateTime (src/ocpi/date-time.ts: the one timestamp reader, UTC when it has no offset). */
function date(query: Record<string, string>, name: string): Date | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const value = ocpiDateTime(raw);
  if (!value) throw new OcpiError(OCPI_STATUS.invalidParameters, `${name} must be ${OCPI_DATE_TIME_FORMAT}`, 400);
  return value;
}

/** `after` of a next page's URL: `<last_updated>,<id>` of the previous page's last item. */
function position(query: Record<string, string>): OcpiPosition | undefined {
  const raw = query.after;
  if (raw === undefined) return undefined;
  const comma = raw.indexOf(',');
  const lastUpdated = comma > 0 ? parseTimestamp(raw.slice(0, comma)) : null;
  const id = raw.slice(comma + 1);
  if (!lastUpdated || !isUuid(id)) throw new OcpiError(OCPI_STATUS.invalidParameters, 'after must be the place a next page link gives (a DateTime and an id)', 400);
  return { lastUpdated, id: id.toLowerCase() };
}

export function ocpiPageQuery(query: Record<string, string>): OcpiPageQuery {
  return {
    offset: wholeNumber(query, 'offset', 0), limit: Math.max(1, Math.min(MAX_LIMIT, wholeNumber(query, 'limit', MAX_LIMIT))),
    dateFrom: date(query, 'date_from'), dateTo: date(query, 'date_to'), after: position(query),
  };
}

/** The headers of a page; `next`: the place of its last item, when more items follow. */
export function setPageHeaders(ctx: Context, q: OcpiPageQuery, page: { total: number; next?: OcpiPosition }): void {
  ctx.set('X-Total-Count', String(page.total));
  ctx.set('X-Limit', String(q.limit));
  if (page.next) {
    const params = new URLSearchParams(queryOf(ctx));
    params.set('offset', String(q.offset + q.limit));
    params.set('limit', String(q.limit));
    params.set('after', `${page.next.lastUpdated.toISOString()},${page.next.id}`);
    ctx.set('Link', `<${ourUrls(originOf(ctx)).base}${ctx.path}?${params.toString()}>; rel="next"`);
  }
}
