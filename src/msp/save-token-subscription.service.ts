import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { customerNamed, resolveCustomer } from '../parties/customer-ref.ts';
import type { CustomFields } from '../parties/customer.entity.ts';
import { administrationNamed, visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError, NotFoundError, type ErrorDetail } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { mergePatch, type Patch } from '../platform/merge-patch.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, lookupByExternalReference, lookupById, type NamedRecord } from '../platform/resource-ref.ts';
import { notValidAt, validAt } from '../platform/validity.ts';
import { issueToken } from './issue-token.service.ts';
import { assertNoOverlap, linkToken, lockToken } from './link-token.service.ts';
import { loadLinkTokens, visibleTokenByEvcoId } from './save-token-link.service.ts';
import { checkTokenUid } from './save-token.service.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import type { UidType } from './token-reference-data.ts';
import { TokenLink } from './token-link.entity.ts';
import { TokenSeries } from './token-series.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

export interface TokenSubscriptionFields {
  buyerReference: string;
  validFrom: Date;
  validUntil: Date;
  customFields: Record<string, string | number | boolean | null>;
  externalReference: string;
  externalUpdatedAt: Date;
}

export type TokenSubscriptionPatch = Patch<TokenSubscriptionFields>;

export interface NewLink {
  evcoId: string;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

/** The members naming the subscription's administration, customer and plan: set on create only. */
export interface SubscriptionParties {
  adminId?: string | null;
  customerId?: string | null;
  customerExternalReference?: string | null;
  planId?: string | null;
  planExternalReference?: string | null;
}

/** On update the parties are ignored, but each must name a record the caller sees. */
function partiesNamed(parties: SubscriptionParties): NamedRecord[] {
  return [
    administrationNamed(parties.adminId),
    ...customerNamed(parties),
    { path: ['plan_id'], what: 'subscription plan', value: parties.planId, find: lookupById(SubscriptionPlan) },
    { path: ['plan_external_reference'], what: 'subscription plan', value: parties.planExternalReference, find: lookupByExternalReference(SubscriptionPlan) },
  ];
}

export interface NewTokenSubscription extends TokenSubscriptionPatch, SubscriptionParties {
  /** A new token from this series is issued and linked (deferring to the subscription's valid_from). */
  tokenSeriesId?: string | null;
  tokenUidTypeId?: UidType | null;
  tokenUid?: string | null;
  /** Existing tokens to link. */
  links?: NewLink[] | null;
}

const WHAT = 'token subscription';
const UNIQUE = { msp_token_subscription_external_reference_unique: ['external_reference'] };

/** A subscription visible to the caller, row-locked for the rest of the transaction and re-read. */
async function lockSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id)
    ? await em.findOne(TokenSubscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, populate: ['plan'] })
    : null;
  if (!subscription) throw new NotFoundError(WHAT);
  return subscription;
}

export async function getTokenSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }, { populate: ['plan'] }) : null;
  if (!subscription) throw new NotFoundError(WHAT);
  return subscription;
}

/** Every link of these subscriptions (defunct ones too), oldest first, with their tokens. */
export async function loadSubscriptionLinks(em: Em, subscriptions: TokenSubscription[]): Promise<Map<string, TokenLink[]>> {
  const bySubscription = new Map<string, TokenLink[]>(subscriptions.map((s) => [s.id, []]));
  if (!subscriptions.length) return bySubscription;
  const links = await em.find(TokenLink, { subscription: { $in: subscriptions.map((s) => s.id) } }, { filters: false, orderBy: { id: 'asc' } });
  await loadLinkTokens(em, links);
  for (const link of links) bySubscription.get(link.subscription.id)?.push(link);
  return bySubscription;
}

export interface SubscriptionListQuery {
  isValid?: boolean;
  planId?: string;
  customerId?: string;
  hasMonetaryCredits?: boolean;
}

/** The list filters; is_valid compares with `now` like TokenSubscription.isValidAt. */
export function subscriptionListFilter(query: SubscriptionListQuery, now = new Date()): FilterQuery<TokenSubscription> {
  const where: Record<string, unknown>[] = [];
  if (query.isValid === true) {
    where.push({ defunct: false, ...validAt(now) });
  } else if (query.isValid === false) {
    where.push({ $or: [{ defunct: true }, notValidAt(now)] });
  }
  if (query.planId !== undefined) where.push({ plan: query.planId });
  if (query.customerId !== undefined) where.push({ customer: query.customerId });
  if (query.hasMonetaryCredits === true) where.push({ monetaryCreditBalance: { $gt: '0' } });
  if (query.hasMonetaryCredits === false) where.push({ monetaryCreditBalance: { $lte: '0' } });
  return (where.length ? { $and: where } : {}) as FilterQuery<TokenSubscription>;
}

function throwFailures(failures: ErrorDetail[]): void {
  if (failures.length) throw DomainError.of('invalid_input', failures);
}

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

function checkValidity(validFrom: Date | null | undefined, validUntil: Date | null | undefined, failures: ErrorDetail[]): void {
  if (!validFrom) failures.push({ path: ['valid_from'], message: 'valid_from is required' });
  else if (validUntil && validUntil.getTime() <= validFrom.getTime()) {
    failures.push({ path: ['valid_until'], message: 'valid_until must be after valid_from' });
  }
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
 * (which defaults to the plan's). The plan's publishing window is not enforced.
 */
export function createTokenSubscription(em: Em, input: NewTokenSubscription): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const failures: ErrorDetail[] = [];
    checkValidity(input.validFrom, input.validUntil, failures);
    throwFailures(failures);
    const explicitAdmin = input.adminId != null ? await visibleAdministration(tx, input.adminId) : null;
    const customer = await resolveCustomer(tx, input);
    const plan = await resolvePlan(tx, input, explicitAdmin?.id);
    await assertExternalReferenceFree(tx, TokenSubscription, input.externalReference, WHAT);
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
    await flushUnique(tx, UNIQUE);
    await issueLinkedToken(tx, subscription, input);
    await linkExistingTokens(tx, subscription, input.links ?? []);
    return subscription;
  });
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
 * POST (merge) or the deprecated PUT (replace: absent members are reset, custom_fields replaced)
 * on /msp-token-subscription/{id}. Administration, customer and plan are set on create only (a
 * plan-or-customer correction changes them). A defunct subscription only records
 * external_updated_at.
 */
export function updateTokenSubscription(em: Em, id: string, patch: TokenSubscriptionPatch & SubscriptionParties, mode: 'merge' | 'replace' = 'merge'): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const subscription = await lockSubscription(tx, id);
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
    if (subscription.defunct && changed.length) {
      throw new DomainError('subscription_defunct', 'a defunct subscription cannot be changed', { path: PARAM[changed[0]] });
    }
    if (changed.includes('externalReference') && next.externalReference
      && next.externalReference.toLowerCase() !== subscription.externalReference?.toLowerCase()) {
      await assertExternalReferenceFree(tx, TokenSubscription, next.externalReference, WHAT);
    }
    if (changed.includes('validFrom')) await recheckDeferringLinks(tx, subscription, validFrom);

    Object.assign(subscription, next);
    if (patch.externalUpdatedAt !== undefined) subscription.externalUpdatedAt = patch.externalUpdatedAt;
    await flushUnique(tx, UNIQUE);
    return subscription;
  });
}

/** PUT /msp-token-subscription/{id}/defunct: the subscription and all its links, in one transaction; idempotent. */
export function markTokenSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const subscription = await lockSubscription(tx, id);
    subscription.defunct = true;
    if (externalUpdatedAt) subscription.externalUpdatedAt = externalUpdatedAt;
    const links = await tx.find(TokenLink, { subscription, defunct: false }, { filters: false });
    for (const link of links) link.defunct = true;
    await tx.flush();
    return subscription;
  });
}
