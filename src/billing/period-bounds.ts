// Invoicing periods' bounds and labels, one home: PostgreSQL computes them, with its time zone data,
// for every caller. The billing core writes them per candidate row in SQL (collect-items.ts, set-based:
// a million sessions are never a million round trips); the period start, late-item placement and the fee
// sources ask for one period at a time (periodAt). Node's time zone data is not PostgreSQL's
// (Africa/Casablanca, America/Edmonton from December 2026 differ), so bounds worked out in JavaScript
// opened a second review-set for a period the items had opened already.
//
// A period is [from, until) between the first instants of the local dates it starts and ends on: where
// the clocks skip midnight (Africa/Cairo), the moment they jump; where midnight happens twice
// (America/Havana, 2026-11-01: 01:00 back to 00:00), the first one. `timestamp at time zone` answers the
// second: the local hour before midnight, converted and an hour added, gives the first (firstInstantSql).
import type { Em } from '../platform/orm.ts';
import type { InvoicingPeriod } from './billing-settings.entity.ts';
import type { Period } from './periods.ts';

/** A period with what its documents and fee lines name: its label and its local dates, both inclusive. */
export interface BillingPeriod extends Period {
  /** `2026-03` for a month, `2026-Q1` for a quarter, `2026` for a year. */
  label: string;
  /** Local dates (YYYY-MM-DD) of its first and last day. */
  first: string;
  last: string;
}

/** The length of a period of the kind `kind` (SQL text: 'month', 'quarter' or 'year', also date_trunc's unit). */
export const periodLengthSql = (kind: string) =>
  `case ${kind} when 'month' then interval '1 month' when 'quarter' then interval '3 months' else interval '1 year' end`;

/** The first instant of the local timestamp `local` (a local midnight) in `zone`. */
const firstInstantSql = (local: string, zone: string) =>
  `least((${local}) at time zone ${zone}, ((${local}) - interval '1 hour') at time zone ${zone} + interval '1 hour')`;

/** [from, until) of the period of `unit` (a kind, see periodLengthSql) and `length` containing the moment `at` in `zone`, as SQL. */
export function periodBoundsSql(at: string, zone: string, unit: string, length: string): { from: string; until: string } {
  const start = `date_trunc((${unit})::text, (${at}) at time zone ${zone})`;
  return { from: firstInstantSql(start, zone), until: firstInstantSql(`${start} + ${length}`, zone) };
}

/** The label of the period of `kind` starting at `from` in `zone`, as SQL. */
export const periodLabelSql = (from: string, zone: string, kind: string) => `case ${kind}
  when 'month' then to_char((${from}) at time zone ${zone}, 'YYYY-MM')
  when 'quarter' then to_char((${from}) at time zone ${zone}, 'YYYY-"Q"Q') else to_char((${from}) at time zone ${zone}, 'YYYY') end`;

/**
 * A subquery answering the period of `kind` containing the moment `at` in `zone` (SQL expressions, e.g. of a
 * lateral's outer row): period_from, period_until, label, first, last (billingPeriod reads such a row).
 */
export function periodOfSql(at: string, zone: string, kind: string): string {
  const { from, until } = periodBoundsSql(at, zone, kind, periodLengthSql(kind));
  return `select b.period_from, b.period_until, ${periodLabelSql('b.period_from', zone, kind)} as label,
      to_char(b.period_from at time zone ${zone}, 'YYYY-MM-DD') as first,
      to_char((b.period_until - interval '1 microsecond') at time zone ${zone}, 'YYYY-MM-DD') as last
    from (select ${from} as period_from, ${until} as period_until) b`;
}

export interface PeriodRow { period_from: string | Date; period_until: string | Date; label: string; first: string; last: string }

export const billingPeriod = (row: PeriodRow): BillingPeriod =>
  ({ from: new Date(row.period_from), until: new Date(row.period_until), label: row.label, first: row.first, last: row.last });

const PERIOD_AT = `select b.* from (select ?::timestamptz as at, ?::text as zone, ?::text as kind) p
  cross join lateral (${periodOfSql('p.at', 'p.zone', 'p.kind')}) b`;

/** The period of `kind` containing the moment `at` in `timeZone`. */
export async function periodAt(em: Em, at: Date, timeZone: string, kind: InvoicingPeriod): Promise<BillingPeriod> {
  const [row] = await em.execute<PeriodRow[]>(PERIOD_AT, [at, timeZone, kind]);
  return billingPeriod(row);
}

/** The period right after `period`. */
export const periodAfter = (em: Em, period: Period, timeZone: string, kind: InvoicingPeriod): Promise<BillingPeriod> =>
  periodAt(em, period.until, timeZone, kind);
