// CPO subscriptions and their EVSE links, on the contract core (src/contracts/): create
// (extension), merge-update (replace on the deprecated PUT), defunct (a subscription's links too, in
// one transaction). An update with the recurring cost correction bills the subscription's fees
// again, in its transaction, for the periods already billed from the first one the validity change
// affects; a create, or a change of bounds with or without it, bills the started periods that hold
// no fee of the subscription or link yet. An EVSE's links to one subscription never overlap (its
// per-EVSE fee would count twice): checked when a link is made or moved, and when the subscription's
// valid_from moves the links that follow it. The writes answer plain data; the reads are in
// cpo-subscription.queries.ts.
import { billUnbilledCpoSubscriptionFees, recollectCpoSubscriptionFees, withdrawCpoSubscriptionFees } from './cpo-subscription-fee.source.ts';
import { affectedFrom, type Bounds, type CorrectionOption } from '../contracts/bounds-change.ts';
import {
  applyLinkPatch, clashingLink, contractCustomer, contractToLink, createContract, findById, lockLink, markDefunct, orderedLinkSpan, updateContract,
  type ContractFields, type ContractKind, type LinkFields, type LinkKind, type LinkSpan,
} from '../contracts/contract-service.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Evse } from './evse.entity.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { CpoSubscriptionEvseLink } from './cpo-subscription-evse-link.entity.ts';
import { loadCpoPlan } from './cpo-subscription-plan.service.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { cpoLinkData, cpoSubscriptionData, type CpoLinkData, type CpoSubscriptionData } from './cpo-subscription.queries.ts';
import { linkEvse } from './link-evse.ts';

export type CpoSubscriptionFields = ContractFields;
export type CpoLinkFields = LinkFields;

export type { CorrectionOption } from '../contracts/bounds-change.ts';

const SUBSCRIPTION: ContractKind<CpoSubscription> = {
  entity: CpoSubscription, what: 'CPO subscription', unique: { cpo_subscription_external_reference_unique: ['external_reference'] },
};
const LINK: LinkKind<CpoSubscriptionEvseLink> = {
  entity: CpoSubscriptionEvseLink, contract: 'subscription', what: 'CPO subscription EVSE link', populate: ['subscription', 'evse'],
};

/**
 * The subscription entity a write changes (its plan loaded), or 400 not_found: locked and read
 * again, so writes to one subscription and its links take turns, each from the last one's result.
 */
function lockSubscription(em: Em, id: string): Promise<CpoSubscription> {
  return findById(em, CpoSubscription, id, SUBSCRIPTION.what, ['plan', 'customer'], { lock: true });
}

export function createCpoSubscription(
  em: Em, input: Patch<CpoSubscriptionFields> & { customerId?: string; planRef?: string },
): Promise<CpoSubscriptionData> {
  const { customerId, planRef, ...fields } = input;
  return em.transactional(async (tx) => {
    const plan = planRef ? await loadCpoPlan(tx, planRef).catch(() => null) : null;
    if (!plan) throw new NotFoundError('CPO subscription plan', { path: ['plan_id'] });
    const customer = await contractCustomer(tx, customerId);
    const subscription = await createContract(tx, SUBSCRIPTION, { admin: plan.admin, customer, plan }, fields);
    await billUnbilledCpoSubscriptionFees(tx, subscription.id);
    return cpoSubscriptionData(subscription);
  });
}

const boundsOf = (from: Date, until: Date | null | undefined): Bounds => ({ from, until: until ?? null });

/**
 * After a change of bounds: the subscription's fees billed again from the first moment it affects
 * (with the correction only), then, either way, the started periods that hold no fee of it yet.
 */
async function correctFees(em: Em, subscriptionId: string, before: Bounds, after: Bounds, options: CorrectionOption): Promise<void> {
  const from = affectedFrom(before, after);
  if (!from) return;
  if (options.recurringCostCorrection) await recollectCpoSubscriptionFees(em, subscriptionId, from);
  await billUnbilledCpoSubscriptionFees(em, subscriptionId);
}

export function updateCpoSubscription(
  em: Em, id: string, patch: Patch<CpoSubscriptionFields>, options: CorrectionOption = {},
): Promise<CpoSubscriptionData> {
  return em.transactional(async (tx) => {
    const subscription = await lockSubscription(tx, id);
    const before = boundsOf(subscription.validFrom, subscription.validUntil);
    await updateContract(tx, SUBSCRIPTION, subscription, patch);
    if (subscription.validFrom.getTime() !== before.from.getTime()) await assertFollowingLinksApart(tx, subscription);
    await correctFees(tx, subscription.id, before, boundsOf(subscription.validFrom, subscription.validUntil), options);
    return cpoSubscriptionData(subscription);
  });
}

/** Defunct with its links; their fees billed in any period are withdrawn. */
export function markCpoSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<CpoSubscriptionData> {
  return em.transactional(async (tx) => {
    const subscription = await markDefunct(tx, await lockSubscription(tx, id), externalUpdatedAt, { links: LINK });
    await withdrawCpoSubscriptionFees(tx, subscription.id);
    return cpoSubscriptionData(subscription);
  });
}

/**
 * Refuses a span of the EVSE overlapping another of its links to the subscription (its per-EVSE
 * fees would count twice); the caller holds the subscription's lock, so two links made at once see each other.
 */
async function assertLinkedOnce(em: Em, subscription: CpoSubscription, evse: Evse, span: LinkSpan, exclude?: CpoSubscriptionEvseLink): Promise<void> {
  const links = (await em.find(CpoSubscriptionEvseLink, { subscription, evse, defunct: false })).filter((link) => link !== exclude);
  const clash = clashingLink(links, span);
  if (clash) throw overlapping(evse, clash, 'end that link first');
}

function overlapping(evse: Evse, clash: CpoSubscriptionEvseLink, remedy: string): DomainError {
  return new DomainError('overlapping_evse_link', `EVSE ${evse.evseUid} is linked to this subscription already from ${clash.effectiveFrom().toISOString()}`
    + `${clash.validUntil ? ` until ${clash.validUntil.toISOString()}` : ''} (link ${clash.id}): ${remedy}`, { path: ['valid_from'] });
}

/**
 * After the subscription's valid_from moved (the change applied, nothing billed yet): the links
 * without their own start moved with it, and must not come to overlap another link of their EVSE
 * (the subscription locked, as for a link made, so that a link made at once sees the move).
 */
async function assertFollowingLinksApart(em: Em, subscription: CpoSubscription): Promise<void> {
  const links = await em.find(CpoSubscriptionEvseLink, { subscription, defunct: false }, { populate: ['evse'], orderBy: { id: 'asc' } });
  for (const link of links) {
    if (link.validFrom) continue;
    const span = { from: subscription.validFrom, until: link.validUntil ?? null };
    // A following link now ending before its start covers nothing: it cannot count twice.
    if (span.until && span.until.getTime() <= span.from.getTime()) continue;
    const clash = clashingLink(links.filter((other) => other !== link && other.evse === link.evse), span);
    if (clash) throw overlapping(link.evse, clash, `link ${link.id} follows the subscription's valid_from; end or move one of them first`);
  }
}

export function createCpoLink(em: Em, input: Patch<CpoLinkFields> & { subscriptionId?: string; evseUid?: string }): Promise<CpoLinkData> {
  return em.transactional(async (tx) => {
    const subscription = await contractToLink(() => (input.subscriptionId ? lockSubscription(tx, input.subscriptionId) : null), SUBSCRIPTION.what, ['subscription_id']);
    const link = await linkEvse(tx, LINK, subscription, 'subscription', input, { externalUpdatedAt: input.externalUpdatedAt ?? null },
      (evse, span) => assertLinkedOnce(tx, subscription, evse, span));
    await billUnbilledCpoSubscriptionFees(tx, subscription.id);
    return cpoLinkData(link);
  });
}

export function updateCpoLink(em: Em, id: string, patch: Patch<CpoLinkFields>, options: CorrectionOption = {}): Promise<CpoLinkData> {
  return em.transactional(async (tx) => {
    const link = await lockLink(tx, LINK, id, (subscriptionId) => lockSubscription(tx, subscriptionId));
    const bounds = () => boundsOf(link.validFrom ?? link.subscription.validFrom, link.validUntil);
    const before = bounds();
    applyLinkPatch(link, link.subscription, patch);
    if (!link.defunct) await assertLinkedOnce(tx, link.subscription, link.evse, orderedLinkSpan(link.subscription, link), link);
    await tx.flush();
    await correctFees(tx, link.subscription.id, before, bounds(), options);
    return cpoLinkData(link);
  });
}

/** Defunct; its per-EVSE fees billed in any period are withdrawn. */
export function markCpoLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<CpoLinkData> {
  return em.transactional(async (tx) => {
    const link = await markDefunct(tx, await lockLink(tx, LINK, id, (subscriptionId) => lockSubscription(tx, subscriptionId)), externalUpdatedAt);
    await withdrawCpoSubscriptionFees(tx, link.subscription.id, link.id);
    return cpoLinkData(link);
  });
}
