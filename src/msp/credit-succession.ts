// Where credit goes when plan-or-customer corrections split a subscription: at a correction's moment,
// not before, the credit of the subscription that held it until then moves to the successor (a
// correction dated in the future leaves the old subscription its credit for its sessions until then).
// Each move is made once (`creditMovedAt`), by whichever comes first once its moment has passed: the
// correction itself (a moment in the past), its job at the moment (correction-credit.ts), or a pricing
// batch that meets it (lockBatchCredit). Moves are made in the order of their moments, so corrections
// of corrections hand the credit on in turn. The movements themselves: monetary-credit.service.ts.
import type { Em } from '../platform/orm.ts';
import { SubscriptionCorrection } from './subscription-correction.entity.ts';

/** Corrections followed from one subscription, backwards or forwards. */
export const MAX_SUCCESSIONS = 20;

const byMoment = (a: SubscriptionCorrection, b: SubscriptionCorrection) =>
  a.correctedFrom.getTime() - b.correctedFrom.getTime() || a.id.localeCompare(b.id);

/** The corrections of a few lineages, and where their credit went or goes. */
export class Succession {
  readonly corrections: SubscriptionCorrection[];
  private readonly byOld = new Map<string, SubscriptionCorrection[]>();

  constructor(corrections: SubscriptionCorrection[]) {
    this.corrections = corrections;
    for (const c of corrections) this.byOld.set(c.oldSubscription.id, [...(this.byOld.get(c.oldSubscription.id) ?? []), c]);
  }

  /** Every subscription the corrections name. */
  subscriptionIds(): string[] {
    return [...new Set(this.corrections.flatMap((c) => [c.oldSubscription.id, c.newSubscription.id]))];
  }

  /**
   * The subscription holding `old`'s credit just before `at`: `old`, or the successor its latest move
   * before `at` went to, and on. Usually `old` itself; not when `old` was corrected again at an earlier
   * moment after a correction dated later, whose move then takes the credit from that earlier successor.
   */
  holderBefore(old: string, at: Date): string {
    let holder = old;
    for (let hops = 0; hops < MAX_SUCCESSIONS; hops++) {
      const moves = (this.byOld.get(holder) ?? []).filter((c) => c.creditMovedAt && c.correctedFrom.getTime() < at.getTime());
      const latest = moves.sort(byMoment).at(-1);
      if (!latest) break;
      holder = latest.newSubscription.id;
    }
    return holder;
  }

  /** The moves not made yet whose moment is at or before `upTo`, in the order they are made. */
  due(upTo: Date): SubscriptionCorrection[] {
    return this.corrections.filter((c) => !c.creditMovedAt && c.correctedFrom.getTime() <= upTo.getTime()).sort(byMoment);
  }

  /**
   * Each subscription whose credit a move took on, to the successor it went to, among the subscriptions
   * `among` (locked): repricing gives credit back along it (BatchCredit).
   */
  successorOf(among: ReadonlySet<string>): Map<string, string> {
    const successors = new Map<string, string>();
    for (const c of [...this.corrections].sort(byMoment)) {
      if (!c.creditMovedAt) continue;
      const from = this.holderBefore(c.oldSubscription.id, c.correctedFrom);
      if (among.has(from) && among.has(c.newSubscription.id)) successors.set(from, c.newSubscription.id);
    }
    return successors;
  }
}

/**
 * The corrections that say where credit went or goes, for `payers` (subscriptions whose credit paid
 * sessions: their corrections and their successors', on) and `subscriptions` (whose moves due by
 * `upTo` and not made yet are wanted: those into or out of them, the ones before those in their
 * lineage, and the corrections of the subscriptions they move from). `refresh`: read again after
 * the subscriptions were locked, for the moves made meanwhile.
 */
export async function loadSuccession(em: Em, scope: { payers: string[]; subscriptions: string[]; upTo: Date; refresh?: boolean }): Promise<Succession> {
  const options = { filters: false, refresh: scope.refresh ?? false } as const;
  const roots = new Set(scope.payers);
  const seen = new Set(scope.subscriptions);
  for (let frontier = [...seen], hops = 0; frontier.length && hops < MAX_SUCCESSIONS; hops++) {
    const pending = await em.find(SubscriptionCorrection, {
      creditMovedAt: null, correctedFrom: { $lte: scope.upTo },
      $or: [{ oldSubscription: { $in: frontier } }, { newSubscription: { $in: frontier } }],
    }, options);
    frontier = [];
    for (const c of pending) {
      roots.add(c.oldSubscription.id);
      if (!seen.has(c.oldSubscription.id)) frontier.push(c.oldSubscription.id);
      seen.add(c.oldSubscription.id);
    }
  }
  const found = new Map<string, SubscriptionCorrection>();
  const visited = new Set(roots);
  for (let olds = [...roots], hops = 0; olds.length && hops < MAX_SUCCESSIONS; hops++) {
    const corrections = await em.find(SubscriptionCorrection, { oldSubscription: { $in: olds } }, options);
    for (const c of corrections) found.set(c.id, c);
    olds = corrections.map((c) => c.newSubscription.id).filter((id) => !visited.has(id));
    for (const id of olds) visited.add(id);
  }
  return new Succession([...found.values()]);
}
