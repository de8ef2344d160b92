import { resolveCustomer } from '../parties/customer-ref.ts';
import type { CustomFields } from '../parties/customer.entity.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError, NotFoundError, type ErrorDetail } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { mergePatch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { issueToken } from './issue-token.service.ts';
import { billUnbilledFees } from './fee-correction.ts';
import { linkToken } from './link-token.service.ts';
import { visibleTokenByEvcoId } from './save-token-link.service.ts';
import { checkTokenUid } from './save-token.service.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import type { UidType } from './token-reference-data.ts';
import { TokenSeries } from './token-series.entity.ts';
import {
  checkValidity, throwFailures, TOKEN_SUBSCRIPTION, TOKEN_SUBSCRIPTION_UNIQUE, type NewLink, type NewTokenSubscription,
} from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenSubscriptionData, type TokenSubscriptionData } from './token-subscription.queries.ts';

/** The plan, named by exactly one of plan_id and plan_external_reference, of the subscription's administration. */
async function resolvePlan(em: Em, input: NewTokenSubscription, adminId: string | null | undefined): Promise<SubscriptionPlan> {
  const hasId = input.planId != null;
  const hasRef = input.planExternalReference != null;
  if (hasId && hasRef) throw new InvalidInputError('give either plan_id or plan_external_reference, not both', { path: ['plan_id'] });
  if (!hasId && !hasRef) throw new InvalidInputError('plan_id or plan_external_reference is required', { path: ['plan_id'] });
  const path = hasId ? ['plan_id'] : ['plan_external_reference'];
  const plan = hasId
    ? (isUuid(input.planId!) ? await em.findOne(SubscriptionPlan, { id: input.planId! }) : null)
    : await em.findOne(SubscriptionPlan, { externalReference: input.planExternalReference! });
  // Plans are managed per administration: one of another administration is not there for this subscription.
  if (!plan || (adminId && plan.admin.id.toLowerCase() !== adminId.toLowerCase())) {
    throw new NotFoundError('subscription plan (of the subscription\'s administration)', { path });
  }
  return plan;
}

/** The token's UID, checked against its type; reported at the body's token_uid. */
function checkUid(uid: string, uidType: UidType | null): string {
  try {
    return checkTokenUid(uid, uidType);
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError(error.code, error.message, { path: ['token_uid'] });
    throw error;
  }
}

async function issueLinkedToken(em: Em, subscription: TokenSubscription, input: NewTokenSubscription): Promise<void> {
  if (input.tokenSeriesId == null) {
    if (input.tokenUidTypeId != null || input.tokenUid != null) {
      throw new InvalidInputError('token_series_id is required to create a token', { path: ['token_series_id'] });
    }
    return;
  }
  const path = ['token_series_id'];
  const series = isUuid(input.tokenSeriesId) ? await em.findOne(TokenSeries, { id: input.tokenSeriesId }) : null;
  if (!series || series.admin.id.toLowerCase() !== subscription.admin.id.toLowerCase()) {
    throw new NotFoundError('token series (of the subscription\'s administration)', { path });
  }
  const uidType = input.tokenUidTypeId ?? series.uidType ?? null;
  const uid = input.tokenUid != null ? checkUid(input.tokenUid, uidType) : null;
  const token = await issueToken(em, { admin: subscription.admin, series, formFactor: series.formFactor, uidType, uid });
  await flushUnique(em, { msp_token_evco_id_unique: ['token_series_id'] });
  await linkToken(em, { subscription, token });
  await em.flush();
}

async function linkExistingTokens(em: Em, subscription: TokenSubscription, links: NewLink[]): Promise<void> {
  for (const [i, link] of links.entries()) {
    const at = ['links', i];
    const token = await visibleTokenByEvcoId(em, link.evcoId, [...at, 'evco_id']);
    await linkToken(em, { subscription, token, validFrom: link.validFrom, validUntil: link.validUntil, at });
    await em.flush();
  }
}

/**
 * POST /msp-token-subscription, in one transaction: the subscription, optionally a new token
 * from a series, and links of existing tokens. The customer may belong to another
 * administration the caller can see; the plan must be one of the subscription's administration
 * (which defaults to the plan's). The plan's publishing window is not enforced. The started periods
 * its validity covers are billed its fees (fee-correction.ts `billUnbilledFees`).
 */
export function createTokenSubscription(em: Em, input: NewTokenSubscription): Promise<TokenSubscriptionData> {
  return em.transactional(async (tx) => {
    const failures: ErrorDetail[] = [];
    checkValidity(input.validFrom, input.validUntil, failures);
    throwFailures(failures);
    const explicitAdmin = input.adminId != null ? await visibleAdministration(tx, input.adminId) : null;
    const customer = await resolveCustomer(tx, input);
    const plan = await resolvePlan(tx, input, explicitAdmin?.id);
    await assertExternalReferenceFree(tx, TokenSubscription, input.externalReference, TOKEN_SUBSCRIPTION);
    const subscription = tx.create(TokenSubscription, {
      admin: explicitAdmin ?? plan.admin,
      customer,
      plan,
      buyerReference: input.buyerReference ?? null,
      validFrom: input.validFrom!,
      validUntil: input.validUntil ?? null,
      customFields: mergePatch({}, input.customFields ?? {}) as CustomFields,
      externalReference: input.externalReference ?? null,
      externalUpdatedAt: input.externalUpdatedAt ?? null,
    });
    await flushUnique(tx, TOKEN_SUBSCRIPTION_UNIQUE);
    await issueLinkedToken(tx, subscription, input);
    await linkExistingTokens(tx, subscription, input.links ?? []);
    // Periods of its validity that started already (a closed month included) are billed now: the period start never comes again for them.
    await billUnbilledFees(tx, subscription.admin.id, [subscription.id]);
    return tokenSubscriptionData(subscription);
  });
}
