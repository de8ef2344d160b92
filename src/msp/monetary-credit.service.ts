// Monetary charge credits (excl. VAT), their one home: an append-only ledger per subscription whose
// running sum is TokenSubscription.monetaryCreditBalance. Every movement locks the subscription row
// and writes the ledger row and the balance in one transaction, so concurrent movements serialize.
// Grants and corrections (REST, GraphQL), the balance moved by a plan-or-customer correction (at its
// moment: credit-succession.ts), and what a pricing batch does with credit (src/session-processing/):
// lock the subscriptions whose credit it moves, make the corrections' moves that are due, give back
// what a repriced session used before, pay a session's eligible lines and show that as
// `monetary_credit` lines, one per VAT rate.
import { LockMode } from '@mikro-orm/core';
import {
  addCurrency, addDecimal, compareDecimal, floorToCurrency, isNegative, isZero, minDecimal, mulDivToCurrency, normalize, parseDecimal, percentOfDecimal,
  roundToCurrency, subtractCurrency, subtractDecimal, sumCurrency, toFixedDecimal,
} from '../money/decimal.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { validityNow } from '../platform/validity.ts';
import type { Subtotal } from '../pricing/price-session.ts';
import { loadSuccession, MAX_SUCCESSIONS, type Succession } from './credit-succession.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { MonetaryCredit, type CREDIT_KINDS } from './monetary-credit.entity.ts';
import { SubscriptionCorrection } from './subscription-correction.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenSubscriptionData, type MonetaryCreditData, type TokenSubscriptionData } from './token-subscription.queries.ts';

type CreditKind = (typeof CREDIT_KINDS)[number];

/** What a credit change answers: the subscription's new balance, its currency and the movement made. */
export interface CreditState {
  subscription: TokenSubscriptionData;
  currency: string;
  lastMovement: MonetaryCreditData | null;
}

/** A balance is less than this: the balance and balance_after columns are numeric(20,6). */
const BALANCE_BOUND = '100000000000000';

/**
 * Appends one movement and moves the balance; the subscription must be locked. A balance below
 * zero or beyond what the columns hold is refused before anything changes, whichever path moves it
 * (a pricing batch's release drops its session out rather than lose credit or fail the batch).
 */
export function appendMovement(em: Em, subscription: TokenSubscription, kind: CreditKind, amount: string, fields: { description?: string | null; sessionId?: string | null } = {}): MonetaryCredit {
  const balanceAfter = addDecimal(subscription.monetaryCreditBalance, amount);
  if (isNegative(balanceAfter)) {
    throw new DomainError('insufficient_credit',
      `the credit balance is ${normalize(subscription.monetaryCreditBalance)}; it cannot go below zero`, { path: ['amount'] });
  }
  if (compareDecimal(balanceAfter, BALANCE_BOUND) >= 0) {
    throw new DomainError('credit_limit',
      `the credit balance is ${normalize(subscription.monetaryCreditBalance)}; it must stay below ${BALANCE_BOUND}`, { path: ['amount'] });
  }
  subscription.monetaryCreditBalance = balanceAfter;
  return em.create(MonetaryCredit, {
    admin: subscription.admin,
    subscription,
    kind,
    amount: normalize(amount),
    balanceAfter,
    description: fields.description ?? null,
    sessionId: fields.sessionId ?? null,
  });
}

async function stateOf(em: Em, subscription: TokenSubscription, lastMovement: MonetaryCredit | null): Promise<CreditState> {
  await em.populate(subscription, ['admin']);
  return { subscription: tokenSubscriptionData(subscription), currency: subscription.admin.currency, lastMovement: lastMovement && plainData(lastMovement) };
}

/**
 * POST (and the deprecated PUT) /msp-token-subscription/{id}/monetary-credit: a positive amount
 * is a grant, a negative one a correction; the balance never goes below zero nor reaches 10^14.
 * A defunct subscription takes corrections only (400 subscription_defunct for a grant).
 */
export async function changeMonetaryCredit(em: Em, subscriptionId: string, input: { amount: string; description?: string | null }): Promise<CreditState> {
  const amount = parseDecimal(input.amount, ['amount']);
  if (isZero(amount)) throw new InvalidInputError('amount must not be zero', { path: ['amount'] });
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, subscriptionId);
    // A defunct subscription's tokens are gone, so a grant could never be used; a correction may still clear its credit.
    if (!isNegative(amount)) {
      subscription.assertChangeable();
      await assertCreditStays(tx, subscription);
    }
    const movement = appendMovement(tx, subscription, isNegative(amount) ? 'correction' : 'grant', amount, { description: input.description });
    await tx.flush();
    return stateOf(tx, subscription, movement);
  });
}

/**
 * A subscription whose credit a plan-or-customer correction moved on takes no grant: the move is
 * made once, so a grant after it stayed on a subscription no later session is priced on.
 */
async function assertCreditStays(em: Em, subscription: TokenSubscription): Promise<void> {
  const moved = await em.findOne(SubscriptionCorrection, { oldSubscription: subscription, creditMovedAt: { $ne: null } }, { filters: false });
  if (moved) {
    throw new DomainError('subscription_not_current', `the subscription's credit moved to ${moved.newSubscription.id} at its plan-or-customer `
      + 'correction: grant credit to that subscription');
  }
}

/**
 * For the pricing engine: uses min(balance, wanted) of the credit for a charge session. Once
 * per session: a second call for the same session consumes nothing more and answers the first
 * result (a consumption is recorded even when it is zero, so the answer stays the same).
 */
export async function consumeCredit(em: Em, subscriptionId: string, amountWanted: string, sessionId: string): Promise<{ consumed: string; balanceAfter: string }> {
  const wanted = parseDecimal(amountWanted, ['amount']);
  if (isNegative(wanted)) throw new InvalidInputError('the wanted amount cannot be negative', { path: ['amount'] });
  if (!isUuid(sessionId)) throw new InvalidInputError('the session id must be a UUID', { path: ['session_id'] });
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, subscriptionId);
    const earlier = await tx.findOne(MonetaryCredit, { subscription, kind: 'consumption', sessionId });
    if (earlier) return { consumed: normalize(subtractDecimal('0', earlier.amount)), balanceAfter: normalize(earlier.balanceAfter) };
    const balance = normalize(subscription.monetaryCreditBalance);
    const consumed = compareDecimal(balance, wanted) < 0 ? balance : wanted;
    const row = appendMovement(tx, subscription, 'consumption', subtractDecimal('0', consumed), { sessionId });
    await tx.flush();
    return { consumed, balanceAfter: row.balanceAfter };
  });
}

/**
 * Moves the whole balance of `from` to `to` (both locked by the caller): a correction row on
 * the one and a grant row on the other. Nothing is written when the balance is zero.
 */
export function transferCreditBalance(em: Em, from: TokenSubscription, to: TokenSubscription, description: string): void {
  const balance = normalize(from.monetaryCreditBalance);
  if (isZero(balance)) return;
  appendMovement(em, from, 'correction', subtractDecimal('0', balance), { description });
  appendMovement(em, to, 'grant', balance, { description });
}

/** The subscriptions of `ids`, row-locked in id order (no deadlocks between transactions that lock several) and re-read. */
export async function lockSubscriptions(em: Em, ids: Iterable<string>): Promise<Map<string, TokenSubscription>> {
  const sorted = [...new Set(ids)].sort();
  const locked = sorted.length === 0 ? [] : await em.find(TokenSubscription, { id: { $in: sorted } }, {
    lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, orderBy: { id: 'asc' }, filters: false,
  });
  return new Map(locked.map((s) => [s.id, s]));
}

/**
 * Makes the corrections' moves of `succession` due by `upTo` whose subscriptions are `locked`, in
 * turn: the whole balance of the holder before the moment to the successor. A move to a successor
 * that became defunct, or whose balance could not take it, is not made: the credit stays.
 */
export function moveDueCredit(em: Em, succession: Succession, locked: Map<string, TokenSubscription>, upTo: Date): void {
  const movedAt = new Date();
  for (const correction of succession.due(upTo)) {
    const from = locked.get(succession.holderBefore(correction.oldSubscription.id, correction.correctedFrom));
    const to = locked.get(correction.newSubscription.id);
    if (!from || !to || to.defunct || compareDecimal(addDecimal(to.monetaryCreditBalance, from.monetaryCreditBalance), BALANCE_BOUND) >= 0) continue;
    transferCreditBalance(em, from, to, 'moved by a plan-or-customer correction');
    correction.creditMovedAt = movedAt;
  }
}

/** A priced line as credit reads it (the pricing core's, labelled or not). */
type CreditableLine = Pick<Subtotal, 'amount_excl_vat' | 'vat_percent' | 'vat_kind' | 'vat_country'> & { kind: string; amount_incl_vat?: string };

/** The line of the credit a priced session used at one VAT rate, among the session's subtotals. */
export interface CreditLine extends Omit<Subtotal, 'kind'> {
  kind: 'monetary_credit';
  rate_label: string;
  rate_represent_as_percentage: boolean;
}

/** What credits may pay: the rounded excl.-VAT lines of components the plan does not exclude. */
export function creditEligibleAmount(subtotals: CreditableLine[], excluded: string[]): string {
  const eligible = sumCurrency(subtotals.filter((s) => !excluded.includes(s.kind)).map((s) => s.amount_excl_vat));
  return compareDecimal(eligible, '0') > 0 ? eligible : '0.00';
}

/** The part of `balance` a session uses: whole cents, never more than the balance or the eligible amount. */
export function creditToUse(balance: string, eligible: string): string {
  return minDecimal(floorToCurrency(balance), eligible);
}

/**
 * A negative line for the credit used. Credits are amounts excl. VAT, so the VAT of the part
 * they pay goes too: the line carries the session's VAT rate on the negative amount.
 */
export function creditLine(used: string, like: CreditableLine, wholeInclVat?: string): CreditLine {
  const amount = normalize(`-${used}`);
  const vatUnrounded = percentOfDecimal(amount, like.vat_percent);
  // Paying a rate's whole net, the credit takes that rate's VAT as its lines hold it: each line's VAT
  // was rounded on its own, so the VAT of the rounded net could leave a cent owed either way.
  const incl = wholeInclVat !== undefined ? roundToCurrency(subtractDecimal('0', wholeInclVat)) : mulDivToCurrency(amount, addDecimal('100', like.vat_percent), '100');
  const excl = roundToCurrency(amount);
  return {
    kind: 'monetary_credit', volume: '1.00', billed_volume: '1.00', step_size: null, rate: amount, rate_unit: 'session',
    rate_label: 'Charge credit', rate_represent_as_percentage: false,
    amount_excl_vat_unrounded: toFixedDecimal(amount, 6), amount_excl_vat: excl,
    vat_percent: like.vat_percent, vat_kind: like.vat_kind, vat_country: like.vat_country,
    vat_amount_unrounded: toFixedDecimal(vatUnrounded, 6), vat_amount: subtractCurrency(incl, excl), amount_incl_vat: incl,
  };
}

/**
 * Adds the credit lines: the credit pays the eligible lines' VAT rates in the order they first
 * appear, each at most its net (its lines' sum, negative ones such as a price cap's adjustment or a
 * discount included), and each VAT rate it pays gets a line of its own, so the VAT that goes is that
 * rate's. Paying a rate's positive lines beyond its net left that rate's base negative: a session
 * paid in full by credit owed the customer VAT.
 */
export function withCredit<T extends CreditableLine>(subtotals: T[], used: string, excluded: string[] = []): (T | CreditLine)[] {
  if (isZero(used)) return subtotals;
  const byVat = new Map<string, { net: string; incl: string | undefined; like: T }>();
  for (const s of subtotals) {
    if (excluded.includes(s.kind)) continue;
    const key = `${s.vat_kind}|${s.vat_percent}|${s.vat_country}`;
    const group = byVat.get(key);
    // The rate's incl.-VAT sum, while every line of it carries one (a pricing core's line does).
    const incl = s.amount_incl_vat === undefined ? undefined
      : group === undefined ? roundToCurrency(s.amount_incl_vat)
        : group.incl === undefined ? undefined : addCurrency(group.incl, s.amount_incl_vat);
    byVat.set(key, { net: group ? addCurrency(group.net, s.amount_excl_vat) : roundToCurrency(s.amount_excl_vat), incl, like: group?.like ?? s });
  }
  let left = used;
  const lines: CreditLine[] = [];
  for (const group of byVat.values()) {
    if (compareDecimal(group.net, '0') <= 0 || compareDecimal(left, '0') <= 0) continue;
    const part = minDecimal(group.net, left);
    left = subtractCurrency(left, part);
    const whole = compareDecimal(part, group.net) === 0 ? group.incl : undefined;
    lines.push(creditLine(roundToCurrency(part), group.like, whole));
  }
  return [...subtotals, ...lines];
}

/**
 * A session of a pricing batch as its credit sees it: the subscription it resolved to, if any, and
 * whether credit movements name it (false: read as none; undefined: read them).
 */
export interface CreditSession { id: string; subscription: { id: string; monetaryCreditBalance: string } | null; creditMoved?: boolean }

/** What one session's credit came to: its lines with the credit lines, the amount used, the explanation (none when nothing was used). */
export interface PaidSession<T> { subtotals: (T | CreditLine)[]; used: string; explanation: string | null }

/**
 * The credit of one pricing batch. `lockBatchCredit` reads the credit earlier results of the batch's
 * sessions used and locks, in id order (no deadlocks between batches), every subscription whose
 * credit the batch may move: those that paid earlier results and their successors, those the
 * sessions resolved to that have a balance or a session priced before, and those of corrections'
 * moves that are due, which it makes. `pay` then works on the locked, re-read rows.
 */
export class BatchCredit {
  private readonly earlier: MonetaryCredit[];
  private readonly successorOf: Map<string, string>;
  private readonly locked: Map<string, TokenSubscription>;
  /** Sessions whose earlier credit this batch gave back already. */
  private readonly released = new Set<string>();

  constructor(earlier: MonetaryCredit[], successorOf: Map<string, string>, locked: Map<string, TokenSubscription>) {
    this.earlier = earlier;
    this.successorOf = successorOf;
    this.locked = locked;
  }

  /**
   * Releases what the session's earlier results used (repricing), then pays what the balance of
   * `subscriptionId` allows of the lines of components not `excluded`: a consumption movement
   * (`description`) and the credit lines.
   */
  pay<T extends CreditableLine>(em: Em, sessionId: string, subscriptionId: string, subtotals: T[], excluded: string[], description: string): PaidSession<T> {
    this.releaseEarlier(em, sessionId, subscriptionId);
    const holder = this.locked.get(subscriptionId);
    if (!holder || compareDecimal(holder.monetaryCreditBalance, '0') <= 0) return { subtotals, used: '0.00', explanation: null };
    const used = creditToUse(holder.monetaryCreditBalance, creditEligibleAmount(subtotals, excluded));
    if (isZero(used)) return { subtotals, used, explanation: null };
    appendMovement(em, holder, 'consumption', subtractDecimal('0', used), { sessionId, description });
    return {
      subtotals: withCredit(subtotals, used, excluded), used,
      explanation: `monetary credit: ${used} of the balance paid the session${excluded.length ? ` (not for ${excluded.join(', ')})` : ''}; `
        + `${normalize(holder.monetaryCreditBalance)} is left`,
    };
  }

  /**
   * Gives back the credit earlier pricing results of a session used (repricing), once the session
   * prices again: what its movements net to (consumptions and the releases of earlier repricings,
   * over every subscription), to the subscription whose credit paid it last, or, when corrections
   * have since moved that subscription's credit on to the one pricing the session now, to that one
   * (the credit follows). Netting per subscription gave an earlier payer back what an earlier
   * repricing had already released to its successor.
   */
  private releaseEarlier(em: Em, sessionId: string, current: string | null): void {
    if (this.released.has(sessionId)) return;
    const rows = this.earlier.filter((row) => row.sessionId === sessionId);
    const net = rows.reduce((sum, row) => addDecimal(sum, row.amount), '0');
    const last = rows.filter((row) => row.kind === 'consumption').at(-1);
    if (compareDecimal(net, '0') >= 0 || !last) return;
    const paidBy = last.subscription.id;
    const to = current === null ? latestSuccessor(this.successorOf, paidBy) : successorReaching(this.successorOf, paidBy, current);
    const reason = current === null ? 'released: the session is no longer priced' : 'released for repricing';
    appendMovement(em, this.locked.get(to)!, 'correction', subtractDecimal('0', net), {
      sessionId, description: to === paidBy ? reason : `${reason} (paid by subscription ${paidBy} before its correction)`,
    });
    this.released.add(sessionId);
  }

  /**
   * A session priced before that this batch leaves unpriced (a drop-out, or processed without
   * pricing): what its earlier results used goes back, to the subscription that paid it last, or,
   * when corrections have since moved that one's credit on, to the last of its successors, which
   * holds it now. When the balance cannot take it back (its bound), the credit stays used.
   */
  releaseUnpriced(em: Em, sessionId: string): void {
    try {
      this.releaseEarlier(em, sessionId, null);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'credit_limit')) throw error;
    }
  }
}

/** The subscription `paidBy`'s credit went on to through corrections that reaches `current`; else `paidBy`. */
function successorReaching(successorOf: Map<string, string>, paidBy: string, current: string): string {
  let to = paidBy;
  for (let hops = 0; to !== current && successorOf.has(to) && hops < MAX_SUCCESSIONS; hops++) to = successorOf.get(to)!;
  return to === current ? to : paidBy;
}

/** The last subscription the corrections moved `paidBy`'s credit on to (`paidBy` when none). */
function latestSuccessor(successorOf: Map<string, string>, paidBy: string): string {
  let to = paidBy;
  for (let hops = 0; successorOf.has(to) && hops < MAX_SUCCESSIONS; hops++) to = successorOf.get(to)!;
  return to;
}

export async function lockBatchCredit(em: Em, sessions: CreditSession[]): Promise<BatchCredit> {
  const moved = sessions.filter((s) => s.creditMoved !== false).map((s) => s.id);
  // In the order they were written (ids are UUIDv7): the last consumption of a session is its last payer.
  const earlier = moved.length ? await em.find(MonetaryCredit, { sessionId: { $in: moved } }, { filters: false, orderBy: { id: 'asc' } }) : [];
  const paidBy = [...new Set(earlier.map((row) => row.subscription.id))];
  // Where corrections took the payers' credit on, and the corrections' moves due into or out of the
  // sessions' subscriptions that their job has not made yet: the batch makes them before it pays.
  const scope = { payers: paidBy, subscriptions: [...new Set(sessions.flatMap((s) => (s.subscription ? [s.subscription.id] : [])))], upTo: validityNow() };
  const succession = await loadSuccession(em, scope);
  const ids = new Set([...paidBy, ...succession.subscriptionIds()]);
  const repriced = new Set(earlier.map((row) => row.sessionId));
  for (const { id, subscription } of sessions) {
    if (subscription && (compareDecimal(subscription.monetaryCreditBalance, '0') > 0 || repriced.has(id))) ids.add(subscription.id);
  }
  const locked = await lockSubscriptions(em, ids);
  // Read again under the locks: a move made meanwhile is not made twice.
  const fresh = succession.corrections.length ? await loadSuccession(em, { ...scope, refresh: true }) : succession;
  moveDueCredit(em, fresh, locked, scope.upTo);
  return new BatchCredit(earlier, fresh.successorOf(new Set(locked.keys())), locked);
}
