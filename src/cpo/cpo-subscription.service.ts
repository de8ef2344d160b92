// CPO subscriptions and their EVSE links, on the contract core (src/contracts/): create
// (extension), merge-update (replace on the deprecated PUT), defunct (a subscription's links too, in
// one transaction). An update with the recurring cost correction bills the subscription's fees
// again, in its transaction, for the periods already billed from the first one the validity change
// affects.
import { recollectCpoSubscriptionFees } from './cpo-subscription-fee.source.ts';
import {
  applyLinkPatch, contractCustomer, contractToLink, createContract, findById, markDefunct, updateContract,
  type ContractFields, type ContractKind, type LinkFields, type LinkKind,
} from '../contracts/contract-service.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { CpoSubscriptionEvseLink } from './cpo-subscription-evse-link.entity.ts';
import { getCpoPlan } from './cpo-subscription-plan.service.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { linkEvse } from './link-evse.ts';

export type CpoSubscriptionFields = ContractFields;
export type CpoLinkFields = LinkFields;

/** An update's options: `recurringCostCorrection` bills already billed periods again (false: they stay as billed). */
export interface CorrectionOption { recurringCostCorrection?: boolean | null }

type Bounds = { from: Date; until: Date | null };

/** The earliest moment whose fees a change of validity bounds affects; null when the bounds did not change. */
export function affectedFrom(before: Bounds, after: Bounds): Date | null {
  const moments: Date[] = [];
  if (before.from.getTime() !== after.from.getTime()) moments.push(before.from, after.from);
  if ((before.until?.getTime() ?? null) !== (after.until?.getTime() ?? null)) {
    for (const until of [before.until, after.until]) if (until) moments.push(until);
  }
  return moments.length ? new Date(Math.min(...moments.map((m) => m.getTime()))) : null;
}

const SUBSCRIPTION: ContractKind<CpoSubscription> = {
  entity: CpoSubscription, what: 'CPO subscription', unique: { cpo_subscription_external_reference_unique: ['external_reference'] },
};
const LINK: LinkKind<CpoSubscriptionEvseLink> = { entity: CpoSubscriptionEvseLink, contract: 'subscription' };

export function getCpoSubscription(em: Em, id: string): Promise<CpoSubscription> {
  return findById(em, CpoSubscription, id, SUBSCRIPTION.what, ['plan', 'customer']);
}

export function cpoSubscriptionList(em: Em, filter: { customerId?: string; planId?: string } = {}): SeekList<CpoSubscription> {
  return new SeekList<CpoSubscription>(em, {
    entity: CpoSubscription, entities: true, populate: ['plan'],
    where: { ...(filter.customerId ? { customer: filter.customerId } : {}), ...(filter.planId ? { plan: filter.planId } : {}) },
  });
}

export function createCpoSubscription(em: Em, input: Patch<CpoSubscriptionFields> & { customerId?: string; planRef?: string }) {
  const { customerId, planRef, ...fields } = input;
  return em.transactional(async (tx) => {
    const plan = planRef ? await getCpoPlan(tx, planRef).catch(() => null) : null;
    if (!plan) throw new NotFoundError('CPO subscription plan', { path: ['plan_id'] });
    const customer = await contractCustomer(tx, customerId);
    return createContract(tx, SUBSCRIPTION, { admin: plan.admin, customer, plan }, fields);
  });
}

const boundsOf = (from: Date, until: Date | null | undefined): Bounds => ({ from, until: until ?? null });

/** Bills the subscription's fees again from the first moment the change of bounds affects (with the correction only). */
async function correctFees(em: Em, subscriptionId: string, before: Bounds, after: Bounds, options: CorrectionOption): Promise<void> {
  const from = options.recurringCostCorrection ? affectedFrom(before, after) : null;
  if (from) await recollectCpoSubscriptionFees(em, subscriptionId, from);
}

export function updateCpoSubscription(em: Em, id: string, patch: Patch<CpoSubscriptionFields>, options: CorrectionOption = {}) {
  return em.transactional(async (tx) => {
    const subscription = await getCpoSubscription(tx, id);
    const before = boundsOf(subscription.validFrom, subscription.validUntil);
    await updateContract(tx, SUBSCRIPTION, subscription, patch);
    await correctFees(tx, subscription.id, before, boundsOf(subscription.validFrom, subscription.validUntil), options);
    return subscription;
  });
}

export function markCpoSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null) {
  return em.transactional(async (tx) => markDefunct(tx, await getCpoSubscription(tx, id), externalUpdatedAt, { links: LINK }));
}

export function getCpoLink(em: Em, id: string): Promise<CpoSubscriptionEvseLink> {
  return findById(em, CpoSubscriptionEvseLink, id, 'CPO subscription EVSE link', ['subscription', 'evse']);
}

export function cpoLinkList(em: Em, filter: { subscriptionId?: string } = {}): SeekList<CpoSubscriptionEvseLink> {
  return new SeekList<CpoSubscriptionEvseLink>(em, {
    entity: CpoSubscriptionEvseLink, entities: true, populate: ['subscription', 'evse'],
    where: filter.subscriptionId ? { subscription: filter.subscriptionId } : {},
  });
}

export function createCpoLink(em: Em, input: Patch<CpoLinkFields> & { subscriptionId?: string; evseUid?: string }) {
  return em.transactional(async (tx) => {
    const subscription = await contractToLink(() => (input.subscriptionId ? getCpoSubscription(tx, input.subscriptionId) : null), SUBSCRIPTION.what, ['subscription_id']);
    return linkEvse(tx, LINK, subscription, 'subscription', input, { externalUpdatedAt: input.externalUpdatedAt ?? null });
  });
}

export function updateCpoLink(em: Em, id: string, patch: Patch<CpoLinkFields>, options: CorrectionOption = {}) {
  return em.transactional(async (tx) => {
    const link = await getCpoLink(tx, id);
    const bounds = () => boundsOf(link.validFrom ?? link.subscription.validFrom, link.validUntil);
    const before = bounds();
    applyLinkPatch(link, link.subscription, patch);
    await tx.flush();
    await correctFees(tx, link.subscription.id, before, bounds(), options);
    return link;
  });
}

export function markCpoLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null) {
  return em.transactional(async (tx) => markDefunct(tx, await getCpoLink(tx, id), externalUpdatedAt));
}
