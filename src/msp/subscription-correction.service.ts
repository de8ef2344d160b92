// Plan-or-customer correction: the subscription is split at a moment T (possibly in the past).
// The old one ends at T; a new one with the new plan and/or customer runs from T to the old end;
// token links reaching past T move over seamlessly and the credit balance moves with them at T
// (now when T has passed, else by a job at T: correction-credit.ts).
// Sessions since T are repriced by the session worker: the correction adds that job in its own
// transaction (subscription-corrected.ts), so a committed correction never misses its repricing.
import { billUnbilledFees, recollectFees } from './fee-correction.ts';
import type { EntityName } from '@mikro-orm/core';
import { Customer } from '../parties/customer.entity.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { findByRef } from '../platform/resource-ref.ts';
import { intervalsOverlap } from '../platform/validity.ts';
import { moveCreditAtCorrection } from './correction-credit.ts';
import { lockToken } from './link-token.service.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { SubscriptionCorrection } from './subscription-correction.entity.ts';
import { SUBSCRIPTION_CORRECTED, type SubscriptionCorrectedJob } from './subscription-corrected.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { TokenLink } from './token-link.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenSubscriptionData, type TokenSubscriptionData } from './token-subscription.queries.ts';

export interface CorrectionInput {
  validFrom: Date;
  newPlanId?: string | null;
  newPlanExternalReference?: string | null;
  newCustomerId?: string | null;
  newCustomerExternalReference?: string | null;
  newExternalReference?: string | null;
  recurringCostCorrection?: boolean | null;
}

export interface CorrectionResult {
  correction: SubscriptionCorrection;
  oldSubscription: TokenSubscription;
  newSubscription: TokenSubscription;
}

/** What a correction answers: the correction, the ended subscription and its successor. */
export interface CorrectionData {
  correction: Data<SubscriptionCorrection>;
  oldSubscription: TokenSubscriptionData;
  newSubscription: TokenSubscriptionData;
}

/** A record named by `<name>_id` or `<name>_external_reference` (at most one), or null when neither is given. */
async function resolveOptional<E extends object>(em: Em, entity: EntityName<E>, name: string, id: string | null | undefined, ref: string | null | undefined): Promise<E | null> {
  const idParam = [`${name}_id`];
  const refParam = [`${name}_external_reference`];
  if (id != null && ref != null) throw new InvalidInputError(`give either ${name}_id or ${name}_external_reference, not both`, { path: idParam });
  if (id == null && ref == null) return null;
  const found = await findByRef(em, entity, id != null ? { id } : { externalReference: ref! }, name);
  if (!found) throw new NotFoundError(name.replaceAll('_', ' '), { path: id != null ? idParam : refParam });
  return found;
}

/** External references are unique in the whole instance (docs/decisions.md). */
async function assertNewReferenceFree(em: Em, reference: string | null | undefined): Promise<void> {
  if (reference === null || reference === undefined) return;
  if (await em.count(TokenSubscription, { externalReference: reference }, { filters: false })) {
    throw new DomainError('duplicate', 'new_external_reference is already used by another token subscription', { path: ['new_external_reference'] });
  }
}

function checkMoment(subscription: TokenSubscription, at: Date): void {
  if (subscription.defunct) throw new DomainError('subscription_defunct', 'a defunct subscription cannot be corrected');
  if (at.getTime() <= subscription.validFrom.getTime()) {
    throw new InvalidInputError('valid_from must lie after the subscription\'s valid_from', { path: ['valid_from'] });
  }
  if (subscription.validUntil && at.getTime() >= subscription.validUntil.getTime()) {
    throw new InvalidInputError('valid_from must lie before the subscription\'s valid_until', { path: ['valid_from'] });
  }
}

/**
 * Every non-defunct link still valid at or after T: one that started before T ends at T, one
 * starting at or after T becomes defunct (it cannot end before it starts); either way the rest
 * of its span is re-created on the new subscription, so a token's validity never has a gap.
 */
async function moveTokenLinks(em: Em, from: TokenSubscription, to: TokenSubscription, at: Date): Promise<void> {
  // Under the tokens' locks (in id order), as every change of a token's links, and read again after
  // them: a link's end set meanwhile was lost in the copy (found by probing, 2026-11-29).
  const tokens = (await em.find(TokenLink, { subscription: from, defunct: false }, { fields: ['token'] })).map((link) => link.token);
  for (const token of [...new Set(tokens)].sort((a, b) => a.id.localeCompare(b.id))) await lockToken(em, token);
  const links = await em.find(TokenLink, { subscription: from, defunct: false }, { orderBy: { id: 'asc' }, refresh: true });
  for (const link of links) {
    if (!intervalsOverlap({ validFrom: link.effectiveFrom(), validUntil: link.validUntil }, { validFrom: at })) continue;
    const startsBefore = link.effectiveFrom().getTime() < at.getTime();
    em.create(TokenLink, {
      admin: to.admin, subscription: to, token: link.token,
      validFrom: startsBefore ? at : link.validFrom, validUntil: link.validUntil ?? null,
    });
    if (startsBefore) link.validUntil = at;
    else link.defunct = true;
  }
}

async function correctIn(em: Em, subscriptionId: string, input: CorrectionInput): Promise<CorrectionResult> {
  const old = await lockTokenSubscription(em, subscriptionId);
  checkMoment(old, input.validFrom);
  const plan = await resolveOptional(em, SubscriptionPlan, 'new_plan', input.newPlanId, input.newPlanExternalReference);
  const customer = await resolveOptional(em, Customer, 'new_customer', input.newCustomerId, input.newCustomerExternalReference);
  if (plan && plan.admin.id !== old.admin.id) {
    throw new InvalidInputError('the plan belongs to another administration than the subscription', { path: input.newPlanId != null ? ['new_plan_id'] : ['new_plan_external_reference'] });
  }
  const planChanges = plan !== null && plan.id !== old.plan.id;
  const customerChanges = customer !== null && customer.id !== old.customer.id;
  if (!planChanges && !customerChanges) {
    throw new InvalidInputError('a correction must change the plan or the customer', { path: plan ? ['new_plan_id'] : customer ? ['new_customer_id'] : ['new_plan_id'] });
  }
  await assertNewReferenceFree(em, input.newExternalReference);

  const successor = em.create(TokenSubscription, {
    admin: old.admin,
    customer: customer ?? old.customer,
    plan: plan ?? old.plan,
    buyerReference: old.buyerReference ?? null,
    customFields: { ...(old.customFields ?? {}) },
    validFrom: input.validFrom,
    validUntil: old.validUntil ?? null,
    monetaryCreditBalance: '0',
    externalReference: input.newExternalReference ?? null,
  });
  old.validUntil = input.validFrom;
  await moveTokenLinks(em, old, successor, input.validFrom);
  const correction = em.create(SubscriptionCorrection, {
    admin: old.admin, oldSubscription: old, newSubscription: successor, correctedFrom: input.validFrom,
    recurringCostCorrection: input.recurringCostCorrection ?? false,
  });
  await flushUnique(em, { msp_token_subscription_external_reference_unique: ['new_external_reference'] });
  await moveCreditAtCorrection(em, correction);
  // The old subscription's billed periods from the correction on: its fees end there, the successor's begin.
  if (input.recurringCostCorrection) await recollectFees(em, old.admin.id, old.id, [old.id, successor.id], input.validFrom);
  // Started periods of the successor that neither it nor the old subscription holds a fee of (the old plan had none) are billed now.
  await billUnbilledFees(em, old.admin.id, [successor.id], { [successor.id]: [old.id] });
  await addFollowUpJob(em, SUBSCRIPTION_CORRECTED, { correction_id: correction.id } satisfies SubscriptionCorrectedJob);
  return { correction, oldSubscription: old, newSubscription: successor };
}

/** The entity form of correctPlanOrCustomer, for other services (the end user's plan switch). */
export async function correctPlanOrCustomerEntities(em: Em, subscriptionId: string, input: CorrectionInput): Promise<CorrectionResult> {
  return em.transactional((tx) => correctIn(tx, subscriptionId, input));
}

/** POST (and the deprecated PUT) /msp-token-subscription/{id}/plan-or-customer-correction. */
export async function correctPlanOrCustomer(em: Em, subscriptionId: string, input: CorrectionInput): Promise<CorrectionData> {
  const { correction, oldSubscription, newSubscription } = await correctPlanOrCustomerEntities(em, subscriptionId, input);
  return {
    correction: plainData(correction),
    oldSubscription: tokenSubscriptionData(oldSubscription),
    newSubscription: tokenSubscriptionData(newSubscription),
  };
}
