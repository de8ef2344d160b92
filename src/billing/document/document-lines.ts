// The names of a document's lines and its session annex, in the document's language, from the
// items of each roll-up (document-items.ts). A line names what it bills: a session line its product
// category (with the roll-up's group, the roaming partner and period where it has them) and how
// many sessions and kWh; any other line the names of its items: a fee with its plan and period, a
// custom item by its own description. Reversals are named "<Reversal>: <what it reverses>". Never a
// generic label, never the stored English item text (a custom item's description excepted: a user
// wrote it).
import { compareDecimal, normalize, subtractCurrency, sumCurrency } from '../../money/decimal.ts';
import type { RollupData } from '../billing-box.queries.ts';
import { daysBetween } from '../periods.ts';
import type { AnnexRow, AnnexSection } from './billing-document.ts';
import { fill, formatAmount, formatDate, labelOf, type Labels } from './document-labels.ts';
import { SESSION_SOURCES, type DocumentItem } from './document-items.ts';

export interface LineContext {
  labels: Labels;
  locale: string;
  /** Descriptions of the administration's own product categories (users wrote them). */
  categories: Map<string, string>;
  /** The box's party (a roaming line names its partner). */
  partyName: string | null;
  /** The document's period, local dates both inclusive. */
  period: { from: string; to: string };
}

/** How many item names a line lists before "+ n more". */
const MAX_NAMES = 3;

const isSessionItem = (item: DocumentItem) => (SESSION_SOURCES as readonly string[]).includes(item.source_kind);
export const negateAmount = (amount: string) => subtractCurrency('0.00', amount);

export function categoryName(code: string, ctx: LineContext): string {
  return labelOf(ctx.labels.categories, code) ?? ctx.categories.get(code) ?? code;
}

const fromTo = (from: string, to: string, ctx: LineContext) =>
  fill(ctx.labels.lines.fromTo, { from: formatDate(from, ctx.locale), to: formatDate(to, ctx.locale) });

/** One item's name (not a session's): a fee, a custom item, else the stored text. */
function itemName(item: DocumentItem, ctx: LineContext): string {
  let name: string;
  if (item.fee_label !== null && item.fee_period !== null) {
    const { first, last } = item.fee_period;
    const of = daysBetween(first, last) + 1;
    const days = item.fee_days !== null && item.fee_days < of ? ` (${fill(ctx.labels.lines.partialDays, { days: item.fee_days, of })})` : '';
    const what = [item.fee_label, item.plan_name].filter(Boolean).join(' – ');
    name = `${what}${item.fee_evse ? `, EVSE ${item.fee_evse}` : ''}, ${fromTo(first, last, ctx)}${days}`;
  } else {
    name = item.entry === 'reversal' && item.reversed_description !== null ? item.reversed_description : item.description;
    if (item.source_kind === 'custom') {
      const quantity = item.quantity.replace(/^-/, '');
      if (compareDecimal(quantity, '1') !== 0) name = `${name} (${formatAmount(quantity, ctx.locale)} × ${formatAmount(normalize(item.unit_price), ctx.locale)})`;
    }
  }
  return item.entry === 'reversal' ? `${ctx.labels.lines.reversal}: ${name}` : name;
}

const count = (n: number, one: string, many: string) => (n === 1 ? one : fill(many, { n }));

/** The name of the line of one roll-up. */
export function lineName(rollup: RollupData, items: DocumentItem[], ctx: LineContext): string {
  const sessions = items.filter(isSessionItem);
  if (sessions.length > 0 || (SESSION_SOURCES as readonly string[]).includes(rollup.productCategory)) {
    const parts = [rollup.context ?? categoryName(rollup.productCategory, ctx)];
    if (rollup.groupValue) parts.push(rollup.groupValue);
    if (sessions.some((i) => i.source_kind === 'roaming') && ctx.partyName) parts.push(`${ctx.partyName}, ${fromTo(ctx.period.from, ctx.period.to, ctx)}`);
    const originals = sessions.filter((i) => i.entry === 'original').length;
    const reversals = sessions.length - originals;
    const facts = [count(originals, ctx.labels.lines.sessionOne, ctx.labels.lines.sessions)];
    if (reversals) facts.push(count(reversals, ctx.labels.lines.reversalOne, ctx.labels.lines.reversals));
    if (rollup.volume.kWh) facts.push(`${formatAmount(rollup.volume.kWh, ctx.locale)} kWh`);
    const others = items.filter((i) => !isSessionItem(i)).map((i) => itemName(i, ctx));
    return `${parts.join(' – ')} (${facts.join(', ')})${others.length ? `; ${listed(others, ctx)}` : ''}`;
  }
  const names = items.map((i) => itemName(i, ctx));
  if (!names.length) return rollup.context ?? categoryName(rollup.productCategory, ctx);
  const own = labelOf(ctx.labels.categories, rollup.productCategory) === undefined ? ctx.categories.get(rollup.productCategory) : undefined;
  const prefix = rollup.context ?? own;
  return prefix ? `${prefix}: ${listed(names, ctx)}` : listed(names, ctx);
}

/** Distinct names in order, at most MAX_NAMES, then "+ n more". */
function listed(names: string[], ctx: LineContext): string {
  const distinct = [...new Set(names)];
  const shown = distinct.slice(0, MAX_NAMES).join('; ');
  return distinct.length > MAX_NAMES ? `${shown}; ${fill(ctx.labels.lines.more, { n: distinct.length - MAX_NAMES })}` : shown;
}

/**
 * The annex section of a line with session items: one row per item (a session, or its reversal),
 * amounts as the document shows them (`flip`: negated), and their subtotal, which is the line's net
 * amount (a roll-up's net is the sum of its items' rounded amounts). A non-session item in the same
 * roll-up (a custom item filed under a session category) is a row of its own, named.
 */
export function annexSection(line: { id: string; number: number; name: string }, items: DocumentItem[], flip: boolean, ctx: LineContext): AnnexSection | null {
  if (!items.some(isSessionItem)) return null;
  const rows: AnnexRow[] = items.map((item) => {
    const amount = flip ? negateAmount(item.amount) : item.amount;
    const s = item.session;
    return s
      ? { ...s, amount, reversal: item.entry === 'reversal' }
      : { session_id: '', start: '', location: itemName(item, ctx), evse_id: null, token: null, energy_kwh: null, duration_minutes: null, amount,
        reversal: item.entry === 'reversal' };
  });
  return { line_id: line.id, line_number: line.number, line_name: line.name, rows, subtotal: sumCurrency(rows.map((r) => r.amount)) };
}
