// Display of amounts, times and states. Amounts stay the decimal strings the API sends: grouped
// for reading, never turned into floats.

/** `-1234.5` → `-1,234.5`; the digits are the API's. */
export function groupDigits(amount: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign, whole, fraction = ''] = match;
  return `${sign === '-' ? '−' : ''}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
}

export function Money({ amount, currency }: { amount: string | null | undefined; currency?: string | null }) {
  if (amount === null || amount === undefined) return <span className="muted">—</span>;
  return <span className="money">{groupDigits(amount)}{currency ? <span className="currency"> {currency}</span> : null}</span>;
}

/** A td holding money: right-aligned, tabular figures. */
export function MoneyCell({ amount, currency }: { amount: string | null | undefined; currency?: string | null }) {
  return <td className="num"><Money amount={amount} currency={currency} /></td>;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatFor(timeZone: string | undefined, dateOnly: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${dateOnly}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', ...(dateOnly ? {} : { timeStyle: 'short' }) });
    } catch {
      format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', ...(dateOnly ? {} : { timeStyle: 'short' }) });
    }
    formats.set(key, format);
  }
  return format;
}

/** A time in the given zone (the session's or the administration's), with the zone shown. */
export function DateTime({ value, timeZone, dateOnly = false }: { value: string | null | undefined; timeZone?: string | null; dateOnly?: boolean }) {
  if (!value) return <span className="muted">—</span>;
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <time dateTime={value} title={value}>
      {formatFor(zone, dateOnly).format(new Date(value))}{dateOnly ? null : <span className="zone"> {zone}</span>}
    </time>
  );
}

const TONES: Record<string, string> = {
  OPEN: 'info', RECEIVED: 'info', PENDING: 'info',
  CLOSED: 'warn', DROPOUT: 'bad', FAILED: 'bad', DISCARDED: 'muted', DEFERRED: 'warn',
  APPROVED: 'good', READY: 'good', FINALIZED: 'good', PRICED: 'good', PROCESSED: 'good', RESOLVED: 'good', DONE: 'good',
  BLOCKED: 'bad', DEFUNCT: 'muted', DISABLED: 'muted', ACTIVE: 'good', VALID: 'good',
};

/** A state as text in a badge: the colour repeats the word, never replaces it. */
export function Badge({ state }: { state: string }) {
  const upper = state.toUpperCase();
  return <span className={`badge badge-${TONES[upper] ?? 'info'}`}>{upper.replace(/_/g, ' ').toLowerCase()}</span>;
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A JSON value the schema still types as JSON, shown readably. */
export function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined || (typeof value === 'object' && Object.keys(value as object).length === 0)) return <span className="muted">—</span>;
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}

const HALF_DAY = 12 * 3_600_000;
const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium' });

/**
 * A billing period [from, until) as its first and last local day. Its bounds are local midnights
 * of the administration's time zone, which the schema does not expose: half a day after the start
 * and before the end are on those days for any zone within UTC±12.
 */
export function Period({ from, until }: { from: string; until: string }) {
  const first = new Date(Date.parse(from) + HALF_DAY);
  const last = new Date(Date.parse(until) - HALF_DAY);
  return <span title={`${from} – ${until}`}>{dayFormat.format(first)} – {dayFormat.format(last)}</span>;
}

/** A review-set's boxes per state, e.g. "3 open, 1 closed" (states without boxes left out). */
export function countsText(counts: { readonly open: number; readonly closed: number; readonly approved: number; readonly ready: number; readonly finalized: number }): string {
  return (['open', 'closed', 'approved', 'ready', 'finalized'] as const).filter((state) => counts[state]).map((state) => `${counts[state]} ${state}`).join(', ');
}
