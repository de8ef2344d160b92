// The reimbursement reads both transports call (REST /cpo-reimbursement-plan,
// /cpo-reimbursement-arrangement with its EVSE links, /cpo-reimbursement-link and the calculation
// inputs; GraphQL reimbursementPlans, ReimbursementPlan and ReimbursementArrangement nodes,
// ReimbursementArrangement.evseLinks): plain data, the caller's administrations only (the em's
// administration filter).
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { childRows } from '../platform/child-pages.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { CalculationInput, type InputOwner } from './calculation-input.entity.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';
import { ReimbursementPlan } from './reimbursement-plan.entity.ts';

export type ReimbursementPlanData = Data<ReimbursementPlan>;
export type ArrangementData = Data<ReimbursementArrangement>;
/** A link with the evse_uid of its EVSE. */
export type ReimbursementLinkData = Data<ReimbursementLink> & { evseUid: string };
/**
 * A link as its arrangement lists it (REST `links`): the members of the MSP subscription's embedded
 * token links (src/msp/token-subscription.queries.ts SubscriptionLinkData) that an EVSE link has.
 */
export type ArrangementLinkData = Pick<ReimbursementLinkData, 'id' | 'evseUid' | 'validFrom' | 'validUntil' | 'defunct'>;
/** An arrangement as REST answers it: with every EVSE link the caller sees (defunct ones too), oldest first. */
export type ArrangementDetail = ArrangementData & { links: ArrangementLinkData[] };
export type CalculationInputData = Data<CalculationInput>;

type Row = Record<string, any>;

const plans = (em: Em, where: FilterQuery<ReimbursementPlan> = {}) => new SeekList<ReimbursementPlanData>(em, {
  entity: ReimbursementPlan, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as ReimbursementPlanData,
});

const arrangementOfRow = (row: Row): ArrangementData =>
  ({ ...row, admin: refOf(row.admin), customer: refOf(row.customer), plan: refOf(row.plan) }) as ArrangementData;

const arrangements = (em: Em, where: FilterQuery<ReimbursementArrangement> = {}) =>
  new SeekList<ArrangementData>(em, { entity: ReimbursementArrangement, where, map: arrangementOfRow });

const linkOfRow = (row: Row): ReimbursementLinkData => ({
  ...row, admin: refOf(row.admin), arrangement: refOf(row.arrangement), evse: refOf(row.evse), evseUid: row.evse.evseUid,
}) as ReimbursementLinkData;

const links = (em: Em, where: FilterQuery<ReimbursementLink> = {}) =>
  new SeekList<ReimbursementLinkData>(em, { entity: ReimbursementLink, where, join: ['evse'], map: linkOfRow });

/** Every link of these arrangements the caller sees (defunct ones too), oldest first, by arrangement: one query. */
async function linksOf(em: Em, arrangementIds: readonly string[]): Promise<Map<string, ArrangementLinkData[]>> {
  const byArrangement = new Map(arrangementIds.map((id) => [id.toLowerCase(), [] as ArrangementLinkData[]]));
  if (!byArrangement.size) return byArrangement;
  // The rows of GET /cpo-reimbursement-link (its join and filters), so each embedded link is that link's answer.
  for (const link of await links(em, { arrangement: { $in: [...byArrangement.keys()] } }).all()) {
    byArrangement.get(link.arrangement.id.toLowerCase())?.push({
      id: link.id, evseUid: link.evseUid, validFrom: link.validFrom ?? null, validUntil: link.validUntil ?? null, defunct: link.defunct,
    });
  }
  return byArrangement;
}

/** Arrangements with their EVSE links: one query for the rows, one for the links. */
const details = (em: Em, where: FilterQuery<ReimbursementArrangement> = {}) => new SeekList<ArrangementDetail>(em, {
  entity: ReimbursementArrangement, where, map: arrangementOfRow as (row: Row) => ArrangementDetail,
  enrich: async (rows) => {
    const linked = await linksOf(em, rows.map((row) => String(row.id)));
    return rows.map((row) => ({ ...row, links: linked.get(String(row.id).toLowerCase()) ?? [] }) as ArrangementDetail);
  },
});

/** Not paged (spec: GET /cpo-reimbursement-plan); bounded by the plans of the caller's administrations. */
export function reimbursementPlans(em: Em): Promise<ReimbursementPlanData[]> {
  return plans(em).page({ limit: 1000 });
}

/** A plan by id, or 400 not_found. */
export async function getReimbursementPlan(em: Em, id: string): Promise<ReimbursementPlanData> {
  const [plan] = isUuid(id) ? await plans(em, { id }).all() : [];
  if (!plan) throw new NotFoundError('reimbursement plan');
  return plan;
}

export function reimbursementPlansByIds(em: Em, ids: readonly string[]): Promise<(ReimbursementPlanData | null)[]> {
  return inIdOrder(ids, (wanted) => plans(em, { id: { $in: wanted } }).all());
}

/** Arrangements by id, of one administration and/or one customer (the EVSE owner). */
export function arrangementList(em: Em, filter: { adminId?: string; customerId?: string } = {}): SeekList<ArrangementData> {
  return arrangements(em, {
    ...(filter.adminId !== undefined ? { admin: filter.adminId } : {}),
    ...(filter.customerId !== undefined ? { customer: filter.customerId } : {}),
  });
}

/** An arrangement by id, or 400 not_found. */
export async function getArrangement(em: Em, id: string): Promise<ArrangementData> {
  const [arrangement] = isUuid(id) ? await arrangements(em, { id }).all() : [];
  if (!arrangement) throw new NotFoundError('reimbursement arrangement');
  return arrangement;
}

/** An arrangement by id with its EVSE links (REST GET /cpo-reimbursement-arrangement/{id}), or 400 not_found. */
export async function getArrangementDetail(em: Em, id: string): Promise<ArrangementDetail> {
  const [arrangement] = isUuid(id) ? await details(em, { id }).all() : [];
  if (!arrangement) throw new NotFoundError('reimbursement arrangement');
  return arrangement;
}

/** The REST answers of arrangements a write changed, in the order given (each visible to the caller who changed it). */
export async function arrangementDetails(em: Em, ids: readonly string[]): Promise<ArrangementDetail[]> {
  const found = await inIdOrder(ids, (wanted) => details(em, { id: { $in: wanted } }).all());
  return found.map((arrangement) => {
    if (!arrangement) throw new NotFoundError('reimbursement arrangement');
    return arrangement;
  });
}

export function arrangementsByIds(em: Em, ids: readonly string[]): Promise<(ArrangementData | null)[]> {
  return inIdOrder(ids, (wanted) => arrangements(em, { id: { $in: wanted } }).all());
}

export function reimbursementLinkList(em: Em, filter: { arrangementId?: string; evseUid?: string } = {}): SeekList<ReimbursementLinkData> {
  // The EVSE by a subquery: a condition on the relation would join it a second time beside the list's own join.
  const evseNamed = (evseUid: string) => em.createQueryBuilder(Evse, 'named').select('named.id').where({ evseUid });
  return links(em, {
    ...(filter.arrangementId ? { arrangement: filter.arrangementId } : {}),
    ...(filter.evseUid ? { evse: { $in: evseNamed(filter.evseUid) } } : {}),
  } as FilterQuery<ReimbursementLink>);
}

export function reimbursementLinksByIds(em: Em, ids: readonly string[]): Promise<(ReimbursementLinkData | null)[]> {
  return inIdOrder(ids, (wanted) => links(em, { id: { $in: wanted } }).all());
}

/** GraphQL ReimbursementArrangement.evseLinks: each arrangement's page of links (defunct ones too), one query for the pages and one for their data. */
export async function reimbursementLinksOfArrangements(em: Em, arrangementIds: readonly string[], range: SeekRange): Promise<ReimbursementLinkData[][]> {
  const pages = await childRows(em, ReimbursementLink, 'arrangement', arrangementIds, range, ['id', 'arrangement']);
  const wanted = pages.flat().map((row) => String(row.id));
  const byId = new Map((wanted.length ? await links(em, { id: { $in: wanted } }).all() : []).map((link) => [link.id.toLowerCase(), link]));
  return pages.map((rows) => rows.map((row) => byId.get(String(row.id).toLowerCase())).filter((link): link is ReimbursementLinkData => link !== undefined));
}

/** The data of a link entity a write changed (its EVSE loaded). */
export function reimbursementLinkData(link: ReimbursementLink): ReimbursementLinkData {
  return Object.assign(plainData(link), { evseUid: link.evse.evseUid });
}

/** Whose calculation inputs: a reimbursement plan's or an arrangement's. */
export interface InputOwnerRef { kind: InputOwner; id: string }

/** An owner's calculation inputs by valid_from (the owner must be one the caller sees, else 400 not_found). */
export async function calculationInputs(em: Em, owner: InputOwnerRef): Promise<CalculationInputData[]> {
  await (owner.kind === 'plan' ? getReimbursementPlan(em, owner.id) : getArrangement(em, owner.id));
  const qb = em.createQueryBuilder(CalculationInput, 'i').select('*').where({ ownerKind: owner.kind, ownerId: owner.id })
    .orderBy({ validFrom: 'asc', componentType: 'asc', varName: 'asc' }).limit(1000);
  await qb.applyFilters();
  const rows: Row[] = await qb.execute('all', true);
  return rows.map((row) => ({ ...row, admin: refOf(row.admin) }) as CalculationInputData);
}
