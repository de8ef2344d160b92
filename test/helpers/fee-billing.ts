// Fee property tests' shared parts (test/rest/billing/*fee-property.test.ts): the months a sequence
// may start, an oracle for a prorated fee written apart from the billing code, and what the boxes
// bill of a fee source, read through GraphQL (items with their subjects).
import { Decimal } from 'decimal.js';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../src/billing/period-start.service.ts';
import type { TestApp } from './app.ts';
import { reviewSetDone } from './billing-factories.ts';

const ZONE = 'Europe/Amsterdam';
/** The months a sequence may start, in order (their first local day). */
export const FEE_MONTHS = ['2026-08-01', '2026-09-01', '2026-10-01'];

/** A local moment in Amsterdam (summer time in all these months but November: UTC+2). */
export const amsterdam = (date: string, hour: number) => new Date(Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00+02:00`));
/** Moments from mid-July to November: local midnights and afternoons, so the day boundary rule is met both ways. */
export const FEE_MOMENTS = ['2026-07-20', '2026-08-01', '2026-08-10', '2026-08-31', '2026-09-01', '2026-09-15', '2026-09-30', '2026-10-01', '2026-10-16', '2026-10-31', '2026-11-05']
  .flatMap((d) => [amsterdam(d, 0), amsterdam(d, 15)]);

const localDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The oracle: a monthly fee for the local days of [from, until) in a month, rounded half up once. */
export function expectedFee(fee: string, from: Date, until: Date | null, month: number): string {
  const first = dayNumber(FEE_MONTHS[month]);
  const next = new Date(Date.parse(`${FEE_MONTHS[month]}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  const end = next.getTime() / 86_400_000;
  const start = Math.max(first, dayNumber(localDate(from)));
  const stop = Math.min(end, until ? dayNumber(localDate(until)) : end);
  const days = Math.max(0, stop - start);
  return new Decimal(fee).mul(days).div(end - first).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

export interface BilledFee { boxId: string; boxState: string; partyId: string; subjectId: string; amount: string }

/** Every item of `kind` in the administration's boxes. */
export async function billedFees(app: TestApp, adminId: string, kind: string): Promise<BilledFee[]> {
  const items: BilledFee[] = [];
  for (let after: string | null = null; ;) {
    const r: { status: number; body: any } = await app.request('POST', '/graphql', {
      body: {
        query: `query($admin: ID!, $after: String) { billingBoxes(adminId: $admin, first: 10, after: $after) {
          edges { node { databaseId state partyId rollups { itemCount items(first: 100) { subjectId sourceKind amountExclVat } } } }
          pageInfo { hasNextPage endCursor } } }`,
        variables: { admin: adminId, after },
      },
    });
    if (r.status !== 200 || r.body.errors) throw new Error(JSON.stringify(r.body));
    const page: { edges: { node: any }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } = r.body.data.billingBoxes;
    for (const { node } of page.edges) {
      for (const rollup of node.rollups) {
        if (rollup.itemCount > rollup.items.length) throw new Error(`roll-up of box ${node.databaseId} has ${rollup.itemCount} items`);
        for (const item of rollup.items) {
          if (item.sourceKind === kind) items.push({ boxId: node.databaseId, boxState: node.state, partyId: node.partyId, subjectId: item.subjectId, amount: item.amountExclVat });
        }
      }
    }
    if (!page.pageInfo.hasNextPage) return items;
    after = page.pageInfo.endCursor;
  }
}

/** The fee items of each box no longer open, as one text per box (a closed box never changes). */
export function closedBoxContents(items: BilledFee[]): Map<string, string> {
  const boxes = new Map<string, string>();
  for (const item of items) {
    if (item.boxState === 'OPEN') continue;
    boxes.set(item.boxId, `${boxes.get(item.boxId) ?? ''}${item.subjectId}=${item.amount};`);
  }
  return boxes;
}

/**
 * What the boxes bill against what is due: `due` maps `<owner>|<YYYY-MM>|<party>` to an amount (none:
 * nothing due). Fee subjects are `<owner>/<YYYY-MM>/<cost index>`; months after the modelled ones
 * (the worker's own period start, the real clock) are left out. A closed box must hold what it held.
 */
export function feeProblems(items: BilledFee[], due: Map<string, string>, frozen: Map<string, string>): string[] {
  const problems: string[] = [];
  const net = new Map<string, Decimal>();
  for (const item of items) {
    const [owner, label] = item.subjectId.split('/');
    const key = `${owner}|${label}|${item.partyId}`;
    net.set(key, (net.get(key) ?? new Decimal(0)).add(item.amount));
  }
  for (const [key, fee] of due) {
    const got = net.get(key)?.toFixed(2) ?? '0.00';
    if (got !== fee) problems.push(`${key}: billed ${got}, due ${fee}`);
  }
  const lastMonth = FEE_MONTHS[FEE_MONTHS.length - 1].slice(0, 7);
  for (const [key, amount] of net) {
    if (key.split('|')[1] > lastMonth) continue;
    if (!due.has(key) && !amount.isZero()) problems.push(`${key}: billed ${amount.toFixed(2)}, due nothing`);
  }
  const now = closedBoxContents(items);
  for (const [boxId, content] of frozen) {
    if (now.get(boxId) !== content) problems.push(`closed box ${boxId} changed: ${content} -> ${now.get(boxId)}`);
  }
  return problems;
}

/** What every fee sequence's world holds: its administration and series, and the months it started and closed. */
export interface FeeWorld { adminId: string; seriesId: string; started: number; closed: Set<number>; log: string[] }

/** A REST call whose 4xx answer the step looks at; a 5xx fails the sequence. */
export async function feeCall(app: TestApp, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status >= 500) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return { status: r.status, body: r.body };
}

/** The next modelled month's period start (they start in order). */
export async function startNextMonth(app: TestApp, w: FeeWorld): Promise<void> {
  if (w.started === FEE_MONTHS.length) return;
  await startCurrentPeriods(scopedEm(app.orm), amsterdam(FEE_MONTHS[w.started], 12));
  w.log.push(`start ${FEE_MONTHS[w.started]}`);
  w.started++;
}

/** Closes the review-set of a started month (once). */
export async function closeMonth(app: TestApp, w: FeeWorld, month: number): Promise<void> {
  if (month >= w.started || w.closed.has(month)) return;
  const sets = (await feeCall(app, 'GET', `/billing-review-set?admin_id=${w.adminId}`)).body.items as any[];
  const set = sets.find((s) => s.billing_series_id === w.seriesId && s.period_from === amsterdam(FEE_MONTHS[month], 0).toISOString());
  if (!set) throw new Error(`no review-set of ${FEE_MONTHS[month]}: ${JSON.stringify(sets)}`);
  await reviewSetDone(app, set.id, 'close');
  w.closed.add(month);
  w.log.push(`close ${FEE_MONTHS[month]}`);
}

/**
 * Runs a sequence's steps, the boxes of each month as its close left them kept, and answers what
 * the boxes bill of `kind` that is not what `due` says (a failure of a step is one too).
 */
export async function feeSequenceProblems<W extends FeeWorld, S>(app: TestApp, w: W, kind: string, steps: S[],
  apply: (w: W, step: S) => Promise<void>, due: (w: W) => Map<string, string>): Promise<string[]> {
  const frozen = new Map<string, string>();
  try {
    for (const step of steps) {
      const closedBefore = w.closed.size;
      await apply(w, step);
      if (w.closed.size > closedBefore) for (const [id, content] of closedBoxContents(await billedFees(app, w.adminId, kind))) if (!frozen.has(id)) frozen.set(id, content);
    }
    return feeProblems(await billedFees(app, w.adminId, kind), due(w), frozen);
  } catch (error) {
    return [`failed: ${(error as Error).message}`];
  }
}
