// The token-issuing subscription operations: a physical card or keychain to be sent out
// (fulfilment), a Plug & Charge vehicle contract, a virtual (app) token; and the activation of
// a fulfilled token. Each issues the token and links it in one transaction.
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { parseEvcoId } from './evco-id.ts';
import { issueToken } from './issue-token.service.ts';
import { linkToken } from './link-token.service.ts';
import { assertUidFree, checkTokenUid, checkVin } from './save-token.service.ts';
import { findTokenByEvcoId } from './token-lookup.ts';
import { FORM_FACTORS, type FormFactor, type UidType } from './token-reference-data.ts';
import { TokenSeries } from './token-series.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenLinkData, type TokenLinkData } from './token-subscription.queries.ts';
import { Token } from './token.entity.ts';
import { tokenData, type TokenData } from './token.queries.ts';

export interface IssuedToken {
  token: TokenData;
  link: TokenLinkData;
}

async function openSubscription(em: Em, id: string, path?: FieldPath): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }) : null;
  if (!subscription) throw new NotFoundError('token subscription', { path });
  if (subscription.defunct) throw new DomainError('subscription_defunct', 'the subscription is defunct', { path });
  return subscription;
}

/** A series of the subscription's administration. */
async function seriesFor(em: Em, id: string, subscription: TokenSubscription): Promise<TokenSeries> {
  const path = ['token_series_id'];
  const series = isUuid(id) ? await em.findOne(TokenSeries, { id }) : null;
  if (!series) throw new NotFoundError('token series', { path });
  if (series.admin.id.toLowerCase() !== subscription.admin.id.toLowerCase()) {
    throw new InvalidInputError('the token series belongs to another administration than the subscription', { path });
  }
  return series;
}

/** Exactly one source of the EVCO id: the one given, or the next of a series. */
function oneSource(input: { evcoId?: string | null; tokenSeriesId?: string | null }): void {
  if (input.evcoId != null && input.tokenSeriesId != null) {
    throw new InvalidInputError('give either evco_id or token_series_id, not both', { path: ['evco_id'] });
  }
  if (input.evcoId == null && input.tokenSeriesId == null) {
    throw new InvalidInputError('evco_id or token_series_id is required', { path: ['token_series_id'] });
  }
}

type IssueInput = Omit<Parameters<typeof issueToken>[1], 'admin' | 'series'>;

async function issueAndLink(em: Em, subscription: TokenSubscription, series: TokenSeries | null, issue: IssueInput, validFrom: Date | null | undefined, finish?: (token: Token) => Promise<void>): Promise<IssuedToken> {
  const token = await issueToken(em, { ...issue, admin: subscription.admin, series });
  await finish?.(token);
  await flushUnique(em, { msp_token_evco_id_unique: ['evco_id'] });
  const link = await linkToken(em, { subscription, token, validFrom: validFrom ?? null });
  await em.flush();
  return { token: await tokenData(em, token), link: tokenLinkData(link) };
}

/** POST /msp-token-subscription/{id}/token-fulfilment: only fulfilable (RFID card, keychain) form factors. */
export function requestTokenFulfilment(em: Em, subscriptionId: string, input: { formFactor: FormFactor; tokenSeriesId: string; uidType?: UidType | null; validFrom?: Date | null }): Promise<IssuedToken> {
  if (!FORM_FACTORS.find((f) => f.id === input.formFactor)?.fulfilable) {
    const allowed = FORM_FACTORS.filter((f) => f.fulfilable).map((f) => f.id).join(', ');
    throw new DomainError('form_factor_not_fulfilable', `only these form factors can be fulfilled: ${allowed}`, { path: ['form_factor'] });
  }
  return em.transactional(async (tx) => {
    const subscription = await openSubscription(tx, subscriptionId);
    const series = await seriesFor(tx, input.tokenSeriesId, subscription);
    return issueAndLink(tx, subscription, series, {
      formFactor: input.formFactor, uidType: input.uidType ?? series.uidType ?? null, fulfilment: 'requested',
    }, input.validFrom);
  });
}

/** POST /msp-token-fulfilment/activate-token: the card arrived; optionally its UID is recorded. */
export function activateToken(em: Em, input: { evcoId: string; uid?: string | null }): Promise<TokenData> {
  parseEvcoId(input.evcoId);
  return em.transactional(async (tx) => {
    const token = await findTokenByEvcoId(tx, input.evcoId, { forUpdate: true });
    if (!token) throw new NotFoundError('token', { path: ['evco_id'] });
    const uid = input.uid != null ? checkTokenUid(input.uid, token.uidType) : null;
    if (uid !== null) await assertUidFree(tx, uid, token.formFactor === 'virtual', token.id);
    token.activate(new Date());
    if (uid !== null) token.uid = uid;
    await tx.flush();
    return tokenData(tx, token);
  });
}

/** POST /msp-token-subscription/{id}/plug-and-charge-vehicle: an eMAID contract for one vehicle. */
export function addPlugAndChargeVehicle(em: Em, subscriptionId: string, input: { vehicleVin: string; evcoId?: string | null; tokenSeriesId?: string | null; validFrom?: Date | null }): Promise<IssuedToken> {
  const vin = checkVin(input.vehicleVin);
  oneSource(input);
  return em.transactional(async (tx) => {
    const subscription = await openSubscription(tx, subscriptionId);
    const series = input.tokenSeriesId != null ? await seriesFor(tx, input.tokenSeriesId, subscription) : null;
    return issueAndLink(tx, subscription, series, {
      formFactor: 'plug_and_charge', uidType: 'emaid', evcoId: input.evcoId ?? null, vehicleVin: vin,
    }, input.validFrom, async (token) => {
      // Its uid is its eMAID: one no other token of its kind may have (it was set unchecked).
      token.uid = checkTokenUid(token.evcoId, 'emaid');
      await assertUidFree(tx, token.uid, false, undefined, ['evco_id']);
    });
  });
}

/** POST /msp-token-subscription/add-virtual-token: an app token, identified by an app user id. */
export function addVirtualToken(em: Em, input: { subscriptionId: string; tokenSeriesId?: string | null; evcoId?: string | null; uid?: string | null; validFrom?: Date | null }): Promise<IssuedToken> {
  oneSource(input);
  return em.transactional(async (tx) => {
    const subscription = await openSubscription(tx, input.subscriptionId, ['subscription_id']);
    const series = input.tokenSeriesId != null ? await seriesFor(tx, input.tokenSeriesId, subscription) : null;
    return issueAndLink(tx, subscription, series, {
      formFactor: 'virtual', uidType: 'app_user', uid: input.uid ?? null, evcoId: input.evcoId ?? null,
    }, input.validFrom);
  });
}
