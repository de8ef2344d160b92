// CPO subscriptions and their EVSE links: create (extension), merge-update (replace on the
// deprecated PUT), defunct (a subscription's links too, in one transaction). An update with the
// recurring cost correction bills the subscription's fees again, in its transaction, for the
// periods already billed from the first one the validity change affects.
import { recollectCpoSubscriptionFees } from './cpo-subscription-fee.source.ts';
import { Customer } from '../parties/customer.entity.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered } from '../platform/validity.ts';
import { SeekList } from '../platform/seek-page.ts';
import { CpoSubscriptionEvseLink } from './cpo-subscription-evse-link.entity.ts';
import { getCpoPlan } from './cpo-subscription-plan.service.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { Evse } from './evse.entity.ts';

export interface CpoSubscriptionFields {
  buyerReference: string;
  validFrom: Date;
  validUntil: Date;
  customFields: Record<string, unknown>;
  externalReference: string;
  externalUpdatedAt: Date;
}

export interface CpoLinkFields { validFrom: Date; validUntil: Date; externalUpdatedAt: Date }

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

const UNIQUE = { cpo_subscription_external_reference_unique: ['external_reference'] };


export async function getCpoSubscription(em: Em, id: string): Promise<CpoSubscription> {
  const subscription = isUuid(id) ? await em.findOne(CpoSubscription, { id }, { populate: ['plan', 'customer'] }) : null;
  if (!subscription) throw new NotFoundError('CPO subscription');
  return subscription;
}

export function cpoSubscriptionList(em: Em, filter: { customerId?: string; planId?: string } = {}): SeekList<CpoSubscription> {
  return new SeekList<CpoSubscription>(em, {
    entity: CpoSubscription, entities: true, populate: ['plan'],
    where: { ...(filter.customerId ? { customer: filter.customerId } : {}), ...(filter.planId ? { plan: filter.planId } : {}) },
  });
}

function applySubscription(subscription: CpoSubscription, patch: Patch<CpoSubscriptionFields>): void {
  if (patch.validFrom === null) throw new InvalidInputError('valid_from cannot be removed', { path: ['valid_from'] });
  const customFields = patch.customFields === undefined ? undefined
    : patch.customFields === null ? {} : mergeCustomFields(subscription.customFields, patch.customFields);
  applyPatch(subscription, { ...patch, customFields });
  assertValidityOrdered(subscription.validFrom, subscription.validUntil);
}

export function createCpoSubscription(em: Em, input: Patch<CpoSubscriptionFields> & { customerId?: string; planRef?: string }) {
  const { customerId, planRef, ...fields } = input;
  return em.transactional(async (tx) => {
    const plan = planRef ? await getCpoPlan(tx, planRef).catch(() => null) : null;
    if (!plan) throw new NotFoundError('CPO subscription plan', { path: ['plan_id'] });
    const customer = customerId && isUuid(customerId) ? await tx.findOne(Customer, { id: customerId }) : null;
    if (!customer) throw new NotFoundError('customer', { path: ['customer_id'] });
    if (!fields.validFrom) throw new InvalidInputError('valid_from is required', { path: ['valid_from'] });
    await assertExternalReferenceFree(tx, CpoSubscription, fields.externalReference, 'CPO subscription');
    const subscription = tx.create(CpoSubscription, { admin: plan.admin, customer, plan, validFrom: fields.validFrom });
    applySubscription(subscription, fields);
    await flushUnique(tx, UNIQUE);
    return subscription;
  });
}

export function updateCpoSubscription(em: Em, id: string, patch: Patch<CpoSubscriptionFields>, options: CorrectionOption = {}) {
  return em.transactional(async (tx) => {
    const subscription = await getCpoSubscription(tx, id);
    subscription.assertChangeable();
    if (patch.externalReference && patch.externalReference.toLowerCase() !== subscription.externalReference?.toLowerCase()) {
      await assertExternalReferenceFree(tx, CpoSubscription, patch.externalReference, 'CPO subscription');
    }
    const before = { from: subscription.validFrom, until: subscription.validUntil ?? null };
    applySubscription(subscription, patch);
    await flushUnique(tx, UNIQUE);
    const from = options.recurringCostCorrection ? affectedFrom(before, { from: subscription.validFrom, until: subscription.validUntil ?? null }) : null;
    if (from) await recollectCpoSubscriptionFees(tx, subscription.id, from);
    return subscription;
  });
}

export function markCpoSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null) {
  return em.transactional(async (tx) => {
    const subscription = await getCpoSubscription(tx, id);
    subscription.defunct = true;
    if (externalUpdatedAt) subscription.externalUpdatedAt = externalUpdatedAt;
    for (const link of await tx.find(CpoSubscriptionEvseLink, { subscription, defunct: false })) link.defunct = true;
    await tx.flush();
    return subscription;
  });
}

export async function getCpoLink(em: Em, id: string): Promise<CpoSubscriptionEvseLink> {
  const link = isUuid(id) ? await em.findOne(CpoSubscriptionEvseLink, { id }, { populate: ['subscription', 'evse'] }) : null;
  if (!link) throw new NotFoundError('CPO subscription EVSE link');
  return link;
}

export function cpoLinkList(em: Em, filter: { subscriptionId?: string } = {}): SeekList<CpoSubscriptionEvseLink> {
  return new SeekList<CpoSubscriptionEvseLink>(em, {
    entity: CpoSubscriptionEvseLink, entities: true, populate: ['subscription', 'evse'],
    where: filter.subscriptionId ? { subscription: filter.subscriptionId } : {},
  });
}

export function createCpoLink(em: Em, input: Patch<CpoLinkFields> & { subscriptionId?: string; evseUid?: string }) {
  return em.transactional(async (tx) => {
    const subscription = input.subscriptionId ? await getCpoSubscription(tx, input.subscriptionId).catch(() => null) : null;
    if (!subscription) throw new NotFoundError('CPO subscription', { path: ['subscription_id'] });
    subscription.assertChangeable();
    const evse = input.evseUid ? await tx.findOne(Evse, { evseUid: input.evseUid }) : null;
    if (!evse) throw new NotFoundError('EVSE', { path: ['evse_uid'] });
    if (evse.admin.id.toLowerCase() !== subscription.admin.id.toLowerCase()) {
      throw new DomainError('administration_mismatch', 'the EVSE and the subscription belong to different administrations', { path: ['evse_uid'] });
    }
    assertValidityOrdered(input.validFrom ?? subscription.validFrom, input.validUntil);
    const link = tx.create(CpoSubscriptionEvseLink, {
      admin: subscription.admin, subscription, evse, validFrom: input.validFrom ?? null, validUntil: input.validUntil ?? null,
      externalUpdatedAt: input.externalUpdatedAt ?? null,
    });
    await tx.flush();
    return link;
  });
}

export function updateCpoLink(em: Em, id: string, patch: Patch<CpoLinkFields>, options: CorrectionOption = {}) {
  return em.transactional(async (tx) => {
    const link = await getCpoLink(tx, id);
    link.assertChangeable();
    const bounds = () => ({ from: link.validFrom ?? link.subscription.validFrom, until: link.validUntil ?? null });
    const before = bounds();
    applyPatch(link, patch);
    assertValidityOrdered(link.validFrom ?? link.subscription.validFrom, link.validUntil);
    await tx.flush();
    const from = options.recurringCostCorrection ? affectedFrom(before, bounds()) : null;
    if (from) await recollectCpoSubscriptionFees(tx, link.subscription.id, from);
    return link;
  });
}

export function markCpoLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null) {
  return em.transactional(async (tx) => {
    const link = await getCpoLink(tx, id);
    link.defunct = true;
    if (externalUpdatedAt) link.externalUpdatedAt = externalUpdatedAt;
    await tx.flush();
    return link;
  });
}
