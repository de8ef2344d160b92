// The token subscription reads both transports call (REST /msp-token-subscription with its links and
// monetary credit movements, /msp-token-link; GraphQL TokenSubscription, TokenLink): plain data, the
// caller's administrations only (the em's administration filter), seek paging by id. A link's token
// is read past the filter (no filtered join on that ref): a token that moved on to another
// administration stays part of its old subscription's history.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { childPages } from '../platform/child-pages.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { isCurrentlyValid, isLinkCurrentlyValid, linkInterval, notValidAt, validAt, validityNow } from '../platform/validity.ts';
import { MonetaryCredit } from './monetary-credit.entity.ts';
import { TokenLink } from './token-link.entity.ts';
import { TOKEN_SUBSCRIPTION } from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

/** A subscription with is_valid (REST is_valid, GraphQL isValid): not defunct and valid now. */
export type TokenSubscriptionData = Data<TokenSubscription> & { isValid: boolean };

/** A link as its subscription lists it (REST `links`): the token's evco_id and the effective valid_from. */
export type SubscriptionLinkData = Pick<TokenLink, 'id' | 'validFrom' | 'validUntil' | 'defunct'> & { evcoId: string; effectiveValidFrom: Date };

/** A subscription as REST answers it: with its plan's external reference and every link (defunct ones too), oldest first. */
export type TokenSubscriptionDetail = TokenSubscriptionData & { planExternalReference: string | null; links: SubscriptionLinkData[] };

/** A token link as stored (GraphQL TokenLink: its token's evco_id and its validity are fields of their own there). */
export type TokenLinkRow = Data<TokenLink>;

/** A link as REST answers it: its token's evco_id, valid_from or else its subscription's, and is_currently_valid. */
export type TokenLinkData = TokenLinkRow & { evcoId: string; effectiveValidFrom: Date; isCurrentlyValid: boolean };

export type MonetaryCreditData = Data<MonetaryCredit>;

type Row = Record<string, any>;
type Bounds = { validFrom?: Date | null; validUntil?: Date | null; defunct: boolean };

/** The data of a subscription entity a write changed (or a child connection read). */
export function tokenSubscriptionData(subscription: TokenSubscription): TokenSubscriptionData {
  return Object.assign(plainData(subscription), { isValid: isCurrentlyValid(subscription) });
}

const subscriptionOfRow = (row: Row): TokenSubscriptionData => ({
  ...row, admin: refOf(row.admin), customer: refOf(row.customer), plan: refOf(row.plan), isValid: isCurrentlyValid(row as Bounds),
}) as TokenSubscriptionData;

const subscriptions = (em: Em, where: FilterQuery<TokenSubscription> = {}) =>
  new SeekList<TokenSubscriptionData>(em, { entity: TokenSubscription, where, map: subscriptionOfRow });

/** Every link of these subscriptions (defunct ones too, of any administration), oldest first, by subscription. */
async function linksOf(em: Em, subscriptions: { id: string; validFrom: Date }[]): Promise<Map<string, SubscriptionLinkData[]>> {
  const bySubscription = new Map(subscriptions.map((s) => [s.id.toLowerCase(), [] as SubscriptionLinkData[]]));
  if (!subscriptions.length) return bySubscription;
  const validFrom = new Map(subscriptions.map((s) => [s.id.toLowerCase(), s.validFrom]));
  // No applyFilters: a subscription's history holds every link and token, whichever administration holds the token now.
  const rows: Row[] = await em.createQueryBuilder(TokenLink, 'l').select('*').leftJoinAndSelect('l.token', 'token')
    .where({ subscription: { $in: [...bySubscription.keys()] } }).orderBy({ id: 'asc' }).execute('all', true);
  for (const row of rows) {
    const key = String(refOf(row.subscription)!.id).toLowerCase();
    bySubscription.get(key)?.push({
      id: row.id, evcoId: row.token.evcoId, validFrom: row.validFrom ?? null, validUntil: row.validUntil ?? null, defunct: row.defunct,
      effectiveValidFrom: linkInterval(row, { validFrom: validFrom.get(key)! }).validFrom,
    });
  }
  return bySubscription;
}

/** Subscriptions with their plan's external reference and their links: one query for the rows, one for the links. */
const details = (em: Em, where: FilterQuery<TokenSubscription> = {}) => new SeekList<TokenSubscriptionDetail>(em, {
  entity: TokenSubscription, where, join: ['plan'],
  map: (row) => ({ ...subscriptionOfRow(row), planExternalReference: row.plan?.externalReference ?? null }) as TokenSubscriptionDetail,
  enrich: async (rows) => {
    const links = await linksOf(em, rows as TokenSubscriptionDetail[]);
    return rows.map((row) => ({ ...row, links: links.get(String(row.id).toLowerCase()) ?? [] }) as TokenSubscriptionDetail);
  },
});

/** A subscription with its plan's external reference and its links, or 400 not_found. */
export async function getTokenSubscription(em: Em, id: string): Promise<TokenSubscriptionDetail> {
  const [subscription] = isUuid(id) ? await details(em, { id }).all() : [];
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  return subscription;
}

/** The REST answers of subscriptions a write changed, in the order given (each visible to the caller who changed it). */
export async function tokenSubscriptionDetails(em: Em, ids: readonly string[]): Promise<TokenSubscriptionDetail[]> {
  const found = await inIdOrder(ids, (wanted) => details(em, { id: { $in: wanted } }).all());
  return found.map((subscription) => {
    if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
    return subscription;
  });
}

export function tokenSubscriptionsByIds(em: Em, ids: readonly string[]): Promise<(TokenSubscriptionData | null)[]> {
  return inIdOrder(ids, (wanted) => subscriptions(em, { id: { $in: wanted } }).all());
}

export interface SubscriptionListQuery {
  isValid?: boolean;
  planId?: string;
  customerId?: string;
  hasMonetaryCredits?: boolean;
}

/** The list filters; is_valid: valid at validityNow() and not defunct, as the is_valid member answers (isCurrentlyValid). */
function subscriptionListFilter(query: SubscriptionListQuery, now = validityNow()): FilterQuery<TokenSubscription> {
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

/** Subscriptions by id with their plan's external reference and their links (REST GET /msp-token-subscription). */
export function tokenSubscriptionList(em: Em, query: SubscriptionListQuery = {}): SeekList<TokenSubscriptionDetail> {
  return details(em, subscriptionListFilter(query));
}

/** The effective valid_from of a link and whether it and its subscription are valid now (src/platform/validity.ts). */
export function tokenLinkState(link: Bounds, subscription: Bounds & { validFrom: Date }): { effectiveValidFrom: Date; isCurrentlyValid: boolean } {
  return { effectiveValidFrom: linkInterval(link, subscription).validFrom, isCurrentlyValid: isLinkCurrentlyValid(link, subscription) };
}

/** The data of a link entity a write changed (its subscription and token loaded). */
export function tokenLinkData(link: TokenLink): TokenLinkData {
  return Object.assign(plainData(link), { evcoId: link.token.evcoId, ...tokenLinkState(link, link.subscription) });
}

const linkOfRow = (row: Row): TokenLinkData => ({
  ...row, admin: refOf(row.admin), subscription: refOf(row.subscription), token: refOf(row.token), evcoId: row.token.evcoId,
  ...tokenLinkState(row as Bounds, row.subscription),
}) as TokenLinkData;

/** Links with their subscription and token (joins carry no administration filter: the token may have moved on). */
const links = (em: Em, where: FilterQuery<TokenLink> = {}) =>
  new SeekList<TokenLinkData>(em, { entity: TokenLink, where, join: ['subscription', 'token'], map: linkOfRow });

/** A link by id, or 400 not_found. */
export async function getTokenLink(em: Em, id: string): Promise<TokenLinkData> {
  const [link] = isUuid(id) ? await links(em, { id }).all() : [];
  if (!link) throw new NotFoundError('token link');
  return link;
}

/** GraphQL Customer.tokenSubscriptions: each customer's page of subscriptions, one query. */
export function subscriptionsOfCustomers(em: Em, customerIds: readonly string[], range: SeekRange): Promise<TokenSubscriptionData[][]> {
  return childPages(em, { entity: TokenSubscription, parent: 'customer', map: subscriptionOfRow }, customerIds, range);
}

/** GraphQL TokenSubscription.tokenLinks and Token.links: each parent's page of links as stored, one query. */
export function tokenLinksOf(em: Em, parent: 'subscription' | 'token', parentIds: readonly string[], range: SeekRange): Promise<TokenLinkRow[][]> {
  return childPages(em, { entity: TokenLink, parent }, parentIds, range);
}

export function tokenLinksByIds(em: Em, ids: readonly string[]): Promise<(TokenLinkData | null)[]> {
  return inIdOrder(ids, (wanted) => links(em, { id: { $in: wanted } }).all());
}

/** The monetary credit movements of a subscription the caller sees, oldest first; else 400 not_found. */
export async function monetaryCreditList(em: Em, subscriptionId: string): Promise<{ subscription: TokenSubscriptionData; movements: SeekList<MonetaryCreditData> }> {
  const [subscription] = await tokenSubscriptionsByIds(em, [subscriptionId]);
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  const movements = new SeekList<MonetaryCreditData>(em, {
    entity: MonetaryCredit, where: { subscription: subscription.id },
    map: (row) => ({ ...row, admin: refOf(row.admin), subscription: refOf(row.subscription) }) as MonetaryCreditData,
  });
  return { subscription, movements };
}
