// OCPI 2.2.1 paging of GET lists (part "Transport and format", pagination): offset and limit
// (at most MAX_LIMIT), date_from and date_to on last_updated; the answer carries X-Total-Count,
// X-Limit and, when more items follow, Link: <next page URL>; rel="next".
import type { Context } from 'koa';
import { utc } from '../../src/ocpi/cdr-to-session.ts';
import { OcpiError, OCPI_STATUS } from '../../src/ocpi/errors.ts';
import type { OcpiPageQuery } from '../../src/ocpi/tokens.queries.ts';
import { parseTimestamp } from '../../src/platform/timestamp.ts';
import { originOf, queryOf } from './ocpi-router.ts';

export const MAX_LIMIT = 100;

function wholeNumber(query: Record<string, string>, name: string, fallback: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new OcpiError(OCPI_STATUS.invalidParameters, `${name} must be a whole number`, 400);
  return Number(raw);
}

/** An OCPI DateTime: RFC 3339 (parseTimestamp), UTC when it has no offset (cdr-to-session.ts utc). */
function date(query: Record<string, string>, name: string): Date | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const value = parseTimestamp(utc(raw));
  if (!value) throw new OcpiError(OCPI_STATUS.invalidParameters, `${name} must be a DateTime such as 2026-01-02T10:00:00Z (RFC 3339, UTC when no offset is given)`, 400);
  return value;
}

export function ocpiPageQuery(query: Record<string, string>): OcpiPageQuery {
  return {
    offset: wholeNumber(query, 'offset', 0), limit: Math.max(1, Math.min(MAX_LIMIT, wholeNumber(query, 'limit', MAX_LIMIT))),
    dateFrom: date(query, 'date_from'), dateTo: date(query, 'date_to'),
  };
}

export function setPageHeaders(ctx: Context, q: OcpiPageQuery, total: number): void {
  ctx.set('X-Total-Count', String(total));
  ctx.set('X-Limit', String(q.limit));
  if (q.offset + q.limit < total) {
    const params = new URLSearchParams(queryOf(ctx));
    params.set('offset', String(q.offset + q.limit));
    params.set('limit', String(q.limit));
    ctx.set('Link', `<${originOf(ctx)}${ctx.path}?${params.toString()}>; rel="next"`);
  }
}
