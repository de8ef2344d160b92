// Monetary charge credits (excl. VAT): an append-only ledger per subscription whose running sum
// is TokenSubscription.monetaryCreditBalance. Every movement locks the subscription row and
// writes the ledger row and the balance in one transaction, so concurrent movements serialize.
import { addDecimal, compareDecimal, isNegative, isZero, normalize, parseDecimal, subtractDecimal } from '../money/decimal.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { MonetaryCredit, type CREDIT_KINDS } from './monetary-credit.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

type CreditKind = (typeof CREDIT_KINDS)[number];

export interface CreditState {
  subscription: TokenSubscription;
  currency: string;
  lastMovement: MonetaryCredit | null;
}

/** Appends one movement and moves the balance; the subscription must be locked. */
export function appendMovement(em: Em, subscription: TokenSubscription, kind: CreditKind, amount: string, fields: { description?: string | null; sessionId?: string | null } = {}): MonetaryCredit {
  const balanceAfter = addDecimal(subscription.monetaryCreditBalance, amount);
  if (isNegative(balanceAfter)) {
    throw new DomainError('insufficient_credit',
      `the credit balance is ${normalize(subscription.monetaryCreditBalance)}; it cannot go below zero`, { path: ['amount'] });
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
  return { subscription, currency: subscription.admin.currency, lastMovement };
}

/**
 * POST (and the deprecated PUT) /msp-token-subscription/{id}/monetary-credit: a positive amount
 * is a grant, a negative one a correction; the balance never goes below zero.
 */
export async function changeMonetaryCredit(em: Em, subscriptionId: string, input: { amount: string; description?: string | null }): Promise<CreditState> {
  const amount = parseDecimal(input.amount, ['amount']);
  if (isZero(amount)) throw new InvalidInputError('amount must not be zero', { path: ['amount'] });
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, subscriptionId);
    const movement = appendMovement(tx, subscription, isNegative(amount) ? 'correction' : 'grant', amount, { description: input.description });
    await tx.flush();
    return stateOf(tx, subscription, movement);
  });
}

export async function getVisibleSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }) : null;
  if (!subscription) throw new NotFoundError('token subscription');
  return subscription;
}

export async function getMonetaryCreditState(em: Em, subscriptionId: string): Promise<CreditState> {
  const subscription = await getVisibleSubscription(em, subscriptionId);
  const last = await em.findOne(MonetaryCredit, { subscription }, { orderBy: { id: 'desc' } });
  return stateOf(em, subscription, last);
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
