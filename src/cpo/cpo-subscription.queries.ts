// The CPO subscription reads both transports call (REST /cpo-subscription-plan, /cpo-subscription with
// its EVSE links, /cpo-subscription-evse-link; GraphQL cpoSubscriptionPlans, cpoSubscriptions and their
// nodes, CpoSubscription.evseLinks, EVSE link nodes): plain data, the caller's administrations only (the
// em's administration filter), seek paging by id.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { EXT_REF_PREFIX } from '../platform/resource-ref.ts';
import { childRows } from '../platform/child-pages.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { isLinkCurrentlyValid } from '../platform/validity.ts';
import { CpoSubscriptionEvseLink } from './cpo-subscription-evse-link.entity.ts';
import { CpoSubscriptionPlanVersion } from './cpo-subscription-plan-version.entity.ts';
import { CpoSubscriptionPlan } from './cpo-subscription-plan.entity.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';

export type CpoPlanData = Data<CpoSubscriptionPlan>;
export type CpoPlanVersionData = Data<CpoSubscriptionPlanVersion>;
/** A subscription with the external reference of its plan (REST plan_external_reference). */
export type CpoSubscriptionData = Data<CpoSubscription> & { planExternalReference: string | null };
/** A link with the evse_uid of its EVSE and whether it and its subscription are valid now (REST is_currently_valid). */
export type CpoLinkData = Data<CpoSubscriptionEvseLink> & { evseUid: string; isCurrentlyValid: boolean };
/**
 * A link as its subscription lists it (REST `links`): the members of the MSP subscription's embedded
 * token links (src/msp/token-subscription.queries.ts SubscriptionLinkData) that an EVSE link has.
 */
export type CpoSubscriptionLinkData = Pick<CpoLinkData, 'id' | 'evseUid' | 'validFrom' | 'validUntil' | 'defunct'>;
/** A subscription as REST answers it: with every EVSE link the caller sees (defunct ones too), oldest first. */
export type CpoSubscriptionDetail = CpoSubscriptionData & { links: CpoSubscriptionLinkData[] };

type Row = Record<string, any>;

const plans = (em: Em, where: FilterQuery<CpoSubscriptionPlan> = {}) => new SeekList<CpoPlanData>(em, {
  entity: CpoSubscriptionPlan, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as CpoPlanData,
});

const subscriptionOfRow = (row: Row): CpoSubscriptionData => ({
  ...row, admin: refOf(row.admin), customer: refOf(row.customer), plan: refOf(row.plan), planExternalReference: row.plan?.externalReference ?? null,
}) as CpoSubscriptionData;

const subscriptions = (em: Em, where: FilterQuery<CpoSubscription> = {}) =>
  new SeekList<CpoSubscriptionData>(em, { entity: CpoSubscription, where, join: ['plan'], map: subscriptionOfRow });

const linkOfRow = (row: Row): CpoLinkData => ({
  ...row, admin: refOf(row.admin), subscription: refOf(row.subscription), evse: refOf(row.evse), evseUid: row.evse.evseUid,
  isCurrentlyValid: isLinkCurrentlyValid(row as CpoSubscriptionEvseLink, row.subscription),
}) as CpoLinkData;

const links = (em: Em, where: FilterQuery<CpoSubscriptionEvseLink> = {}) =>
  new SeekList<CpoLinkData>(em, { entity: CpoSubscriptionEvseLink, where, join: ['subscription', 'evse'], map: linkOfRow });

/** Every link of these subscriptions the caller sees (defunct ones too), oldest first, by subscription: one query. */
async function linksOf(em: Em, subscriptionIds: readonly string[]): Promise<Map<string, CpoSubscriptionLinkData[]>> {
  const bySubscription = new Map(subscriptionIds.map((id) => [id.toLowerCase(), [] as CpoSubscriptionLinkData[]]));
  if (!bySubscription.size) return bySubscription;
  // The rows of GET /cpo-subscription-evse-link (its joins and filters), so each embedded link is that link's answer.
  for (const link of await links(em, { subscription: { $in: [...bySubscription.keys()] } }).all()) {
    bySubscription.get(link.subscription.id.toLowerCase())?.push({
      id: link.id, evseUid: link.evseUid, validFrom: link.validFrom ?? null, validUntil: link.validUntil ?? null, defunct: link.defunct,
    });
  }
  return bySubscription;
}

/** Subscriptions with their plan's external reference and their EVSE links: one query for the rows, one for the links. */
const details = (em: Em, where: FilterQuery<CpoSubscription> = {}) => new SeekList<CpoSubscriptionDetail>(em, {
  entity: CpoSubscription, where, join: ['plan'], map: subscriptionOfRow as (row: Row) => CpoSubscriptionDetail,
  enrich: async (rows) => {
    const linked = await linksOf(em, rows.map((row) => String(row.id)));
    return rows.map((row) => ({ ...row, links: linked.get(String(row.id).toLowerCase()) ?? [] }) as CpoSubscriptionDetail);
  },
});

/** A plan by id or `ext_ref.<reference>`, or 400 not_found. */
export async function getCpoPlan(em: Em, ref: string): Promise<CpoPlanData> {
  const externalReference = ref.startsWith(EXT_REF_PREFIX) ? ref.slice(EXT_REF_PREFIX.length) : null;
  const where = externalReference !== null ? { externalReference } : isUuid(ref) ? { id: ref } : null;
  const [plan] = where ? await plans(em, where).all() : [];
  if (!plan) throw new NotFoundError('CPO subscription plan');
  return plan;
}

export function cpoPlanList(em: Em, filter: { adminId?: string } = {}): SeekList<CpoPlanData> {
  return plans(em, filter.adminId ? { admin: filter.adminId } : {});
}

export function cpoPlansByIds(em: Em, ids: readonly string[]): Promise<(CpoPlanData | null)[]> {
  return inIdOrder(ids, (wanted) => plans(em, { id: { $in: wanted } }).all());
}

/** The versions of the plans, by plan and valid_from. */
export async function cpoPlanVersions(em: Em, planIds: readonly string[]): Promise<CpoPlanVersionData[]> {
  if (!planIds.length) return [];
  const qb = em.createQueryBuilder(CpoSubscriptionPlanVersion, 'v').select('*')
    .where({ plan: { $in: [...new Set(planIds)] } }).orderBy({ plan: 'asc', validFrom: 'asc' });
  await qb.applyFilters();
  const rows: Row[] = await qb.execute('all', true);
  return rows.map((row) => ({ ...row, plan: refOf(row.plan) }) as CpoPlanVersionData);
}

/** A subscription by id with its EVSE links (REST GET /cpo-subscription/{id}), or 400 not_found. */
export async function getCpoSubscription(em: Em, id: string): Promise<CpoSubscriptionDetail> {
  const [subscription] = isUuid(id) ? await details(em, { id }).all() : [];
  if (!subscription) throw new NotFoundError('CPO subscription');
  return subscription;
}

/** The REST answers of subscriptions a write changed, in the order given (each visible to the caller who changed it). */
export async function cpoSubscriptionDetails(em: Em, ids: readonly string[]): Promise<CpoSubscriptionDetail[]> {
  const found = await inIdOrder(ids, (wanted) => details(em, { id: { $in: wanted } }).all());
  return found.map((subscription) => {
    if (!subscription) throw new NotFoundError('CPO subscription');
    return subscription;
  });
}

export interface CpoSubscriptionListFilter { customerId?: string; planId?: string }

const subscriptionListFilter = (filter: CpoSubscriptionListFilter): FilterQuery<CpoSubscription> =>
  ({ ...(filter.customerId ? { customer: filter.customerId } : {}), ...(filter.planId ? { plan: filter.planId } : {}) });

/** Subscriptions by id (GraphQL cpoSubscriptions; its links are the evseLinks connection). */
export function cpoSubscriptionList(em: Em, filter: CpoSubscriptionListFilter = {}): SeekList<CpoSubscriptionData> {
  return subscriptions(em, subscriptionListFilter(filter));
}

/** Subscriptions by id with their EVSE links, one query for a page's links (REST GET /cpo-subscription). */
export function cpoSubscriptionDetailList(em: Em, filter: CpoSubscriptionListFilter = {}): SeekList<CpoSubscriptionDetail> {
  return details(em, subscriptionListFilter(filter));
}

export function cpoSubscriptionsByIds(em: Em, ids: readonly string[]): Promise<(CpoSubscriptionData | null)[]> {
  return inIdOrder(ids, (wanted) => subscriptions(em, { id: { $in: wanted } }).all());
}

/** The data of a subscription entity a write changed (its plan loaded). */
export function cpoSubscriptionData(subscription: CpoSubscription): CpoSubscriptionData {
  return Object.assign(plainData(subscription), { planExternalReference: subscription.plan.externalReference ?? null });
}

/** A link by id, or 400 not_found. */
export async function getCpoLink(em: Em, id: string): Promise<CpoLinkData> {
  const [link] = isUuid(id) ? await links(em, { id }).all() : [];
  if (!link) throw new NotFoundError('CPO subscription EVSE link');
  return link;
}

export function cpoLinkList(em: Em, filter: { subscriptionId?: string } = {}): SeekList<CpoLinkData> {
  return links(em, filter.subscriptionId ? { subscription: filter.subscriptionId } : {});
}

export function cpoLinksByIds(em: Em, ids: readonly string[]): Promise<(CpoLinkData | null)[]> {
  return inIdOrder(ids, (wanted) => links(em, { id: { $in: wanted } }).all());
}

/** GraphQL CpoSubscription.evseLinks: each subscription's page of links (defunct ones too), one query for the pages and one for their data. */
export async function cpoLinksOfSubscriptions(em: Em, subscriptionIds: readonly string[], range: SeekRange): Promise<CpoLinkData[][]> {
  const pages = await childRows(em, CpoSubscriptionEvseLink, 'subscription', subscriptionIds, range, ['id', 'subscription']);
  const wanted = pages.flat().map((row) => String(row.id));
  const byId = new Map((wanted.length ? await links(em, { id: { $in: wanted } }).all() : []).map((link) => [link.id.toLowerCase(), link]));
  return pages.map((rows) => rows.map((row) => byId.get(String(row.id).toLowerCase())).filter((link): link is CpoLinkData => link !== undefined));
}

/** The data of a link entity a write changed (its subscription and EVSE loaded). */
export function cpoLinkData(link: CpoSubscriptionEvseLink): CpoLinkData {
  return Object.assign(plainData(link), { evseUid: link.evse.evseUid, isCurrentlyValid: link.isCurrentlyUsable() });
}
