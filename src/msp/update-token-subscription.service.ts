import { affectedFrom, type Bounds, type CorrectionOption } from '../contracts/bounds-change.ts';
import { billUnbilledFees, recollectFees } from './fee-correction.ts';
import { customerNamed } from '../parties/customer-ref.ts';
import type { CustomFields } from '../parties/customer.entity.ts';
import { administrationNamed } from '../parties/customer-input.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import { InvalidInputError, type ErrorDetail } from '../platform/errors.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, lookupByExternalReference, lookupById, type NamedRecord } from '../platform/resource-ref.ts';
import { assertNoOverlap, lockToken } from './link-token.service.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { loadLinkTokens } from './save-token-link.service.ts';
import { SubscriptionCorrection } from './subscription-correction.entity.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { TokenLink } from './token-link.entity.ts';
import {
  checkValidity, throwFailures, TOKEN_SUBSCRIPTION, TOKEN_SUBSCRIPTION_UNIQUE, type SubscriptionParties, type TokenSubscriptionPatch,
} from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenSubscriptionData, type TokenSubscriptionData } from './token-subscription.queries.ts';

/** On update the parties are ignored, but each must name a record the caller sees. */
function partiesNamed(parties: SubscriptionParties): NamedRecord[] {
  return [
    administrationNamed(parties.adminId),
    ...customerNamed(parties),
    { path: ['plan_id'], what: 'subscription plan', value: parties.planId, find: lookupById(SubscriptionPlan) },
    { path: ['plan_external_reference'], what: 'subscription plan', value: parties.planExternalReference, find: lookupByExternalReference(SubscriptionPlan) },
  ];
}

function differs(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() !== b.getTime();
  return JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
}

const PARAM = {
  buyerReference: ['buyer_reference'],
  validFrom: ['valid_from'],
  validUntil: ['valid_until'],
  customFields: ['custom_fields'],
  externalReference: ['external_reference'],
} as const;

/**
 * Links that defer to the subscription's valid_from move with it: each must still end after
 * its new start and must not come to overlap another link of its token.
 */
async function recheckDeferringLinks(em: Em, subscription: TokenSubscription, validFrom: Date): Promise<void> {
  const links = await em.find(TokenLink, { subscription, defunct: false, validFrom: null }, { filters: false, orderBy: { id: 'asc' } });
  await loadLinkTokens(em, links);
  for (const link of links) {
    const span = { from: validFrom, until: link.validUntil ?? null };
    if (span.until && span.until.getTime() <= validFrom.getTime()) {
      throw new InvalidInputError(`token link ${link.id} defers to valid_from and ends before it; change that link first`, { path: ['valid_from'] });
    }
    await lockToken(em, link.token);
    await assertNoOverlap(em, link.token, span, { exclude: link, path: ['valid_from'] });
  }
}

/**
 * A plan-or-customer correction at T ends its old subscription at T where its successor starts:
 * the old one may not run past T again, the successor not start before it, nor run past a later
 * correction of the same old subscription (whose successor runs on from there), or both would be
 * valid, and billed, for the same days. A defunct other side bills nothing and binds no more.
 */
async function assertCorrectionsKept(em: Em, subscription: TokenSubscription, bounds: Bounds, changed: readonly string[]): Promise<void> {
  const naming = await em.find(SubscriptionCorrection, { $or: [{ oldSubscription: subscription }, { newSubscription: subscription }] },
    { filters: false, populate: ['oldSubscription', 'newSubscription'] });
  const made = naming.find((c) => c.newSubscription.id === subscription.id);
  const ending: SubscriptionCorrection[] = naming.filter((c) => c.oldSubscription.id === subscription.id && !c.newSubscription.defunct);
  if (made) {
    const later = await em.find(SubscriptionCorrection, { oldSubscription: made.oldSubscription, correctedFrom: { $gt: made.correctedFrom } },
      { filters: false, populate: ['newSubscription'] });
    ending.push(...later.filter((c) => !c.newSubscription.defunct));
  }
  if (changed.includes('validFrom') && made && !made.oldSubscription.defunct && bounds.from.getTime() < made.correctedFrom.getTime()) {
    throw new InvalidInputError(`valid_from cannot lie before ${made.correctedFrom.toISOString()}, where a plan-or-customer correction `
      + `started the subscription after ${made.oldSubscription.id}`, { path: ['valid_from'] });
  }
  const end = ending.sort((a, b) => a.correctedFrom.getTime() - b.correctedFrom.getTime())[0];
  if (changed.includes('validUntil') && end && (!bounds.until || bounds.until.getTime() > end.correctedFrom.getTime())) {
    throw new InvalidInputError(`valid_until cannot lie after ${end.correctedFrom.toISOString()}, where ${end.newSubscription.id} `
      + 'runs on by a plan-or-customer correction', { path: ['valid_until'] });
  }
}

/**
 * POST (merge) or the deprecated PUT (replace: absent members are reset, custom_fields replaced)
 * on /msp-token-subscription/{id}. Administration, customer and plan are set on create only (a
 * plan-or-customer correction changes them). A defunct subscription only records
 * external_updated_at.
 */
export async function updateTokenSubscription(
  em: Em, id: string, patch: TokenSubscriptionPatch & SubscriptionParties, mode: 'merge' | 'replace' = 'merge', options: CorrectionOption = {},
): Promise<TokenSubscriptionData> {
  return tokenSubscriptionData(await updateTokenSubscriptionEntity(em, id, patch, mode, options));
}

/**
 * The entity form of updateTokenSubscription, for other services (the end user's cancel). With the
 * recurring cost correction, the periods already billed are billed again from the first moment the
 * change of bounds affects (fee-correction.ts); with or without it, a change of bounds bills the
 * started periods the validity covers that hold no fee of it yet.
 */
export function updateTokenSubscriptionEntity(
  em: Em, id: string, patch: TokenSubscriptionPatch & SubscriptionParties, mode: 'merge' | 'replace' = 'merge', options: CorrectionOption = {},
): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, id, { withPlan: true });
    await assertNamedRecordsVisible(tx, partiesNamed(patch));
    const failures: ErrorDetail[] = [];
    if (patch.validFrom === null) failures.push({ path: ['valid_from'], message: 'valid_from cannot be cleared' });
    const validFrom = patch.validFrom ?? subscription.validFrom;
    const validUntil = patch.validUntil === undefined ? (subscription.validUntil ?? null) : patch.validUntil;
    if (patch.validFrom !== null) checkValidity(validFrom, validUntil, failures);
    throwFailures(failures);

    const customFields = patch.customFields === undefined ? subscription.customFields
      : patch.customFields === null ? {}
        : mergeCustomFields(mode === 'replace' ? {} : subscription.customFields, patch.customFields) as CustomFields;
    const next = {
      buyerReference: patch.buyerReference === undefined ? (subscription.buyerReference ?? null) : patch.buyerReference,
      validFrom,
      validUntil,
      customFields,
      externalReference: patch.externalReference === undefined ? (subscription.externalReference ?? null) : patch.externalReference,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter((key) => differs(next[key], subscription[key]));
    if (changed.length) subscription.assertChangeable(PARAM[changed[0]]);
    if (changed.includes('externalReference') && setsOtherExternalReference(next.externalReference, subscription.externalReference)) {
      await assertExternalReferenceFree(tx, TokenSubscription, next.externalReference, TOKEN_SUBSCRIPTION);
    }
    if (changed.includes('validFrom') || changed.includes('validUntil')) await assertCorrectionsKept(tx, subscription, { from: validFrom, until: validUntil }, changed);
    if (changed.includes('validFrom')) await recheckDeferringLinks(tx, subscription, validFrom);

    const before: Bounds = { from: subscription.validFrom, until: subscription.validUntil ?? null };
    Object.assign(subscription, next);
    if (patch.externalUpdatedAt !== undefined) subscription.externalUpdatedAt = patch.externalUpdatedAt;
    await flushUnique(tx, TOKEN_SUBSCRIPTION_UNIQUE);
    const affected = affectedFrom(before, { from: validFrom, until: validUntil });
    if (affected && options.recurringCostCorrection) await recollectFees(tx, subscription.admin.id, subscription.id, [subscription.id], affected);
    // With or without the correction: started periods the validity covers now and that never held its fee.
    if (affected) await billUnbilledFees(tx, subscription.admin.id, [subscription.id]);
    return subscription;
  });
}
