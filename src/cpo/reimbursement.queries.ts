// The reimbursement reads both transports call (REST /cpo-reimbursement-plan,
// /cpo-reimbursement-arrangement, /cpo-reimbursement-link and the calculation inputs; GraphQL
// reimbursementPlans, ReimbursementPlan and ReimbursementArrangement nodes): plain data, the
// caller's administrations only (the em's administration filter).
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { CalculationInput, type InputOwner } from './calculation-input.entity.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';
import { ReimbursementPlan } from './reimbursement-plan.entity.ts';

export type ReimbursementPlanData = Data<ReimbursementPlan>;
export type ArrangementData = Data<ReimbursementArrangement>;
/** A link with the evse_uid of its EVSE. */
export type ReimbursementLinkData = Data<ReimbursementLink> & { evseUid: string };
export type CalculationInputData = Data<CalculationInput>;

type Row = Record<string, any>;

const plans = (em: Em, where: FilterQuery<ReimbursementPlan> = {}) => new SeekList<ReimbursementPlanData>(em, {
  entity: ReimbursementPlan, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as ReimbursementPlanData,
});

const arrangements = (em: Em, where: FilterQuery<ReimbursementArrangement> = {}) => new SeekList<ArrangementData>(em, {
  entity: ReimbursementArrangement, where,
  map: (row) => ({ ...row, admin: refOf(row.admin), customer: refOf(row.customer), plan: refOf(row.plan) }) as ArrangementData,
});

const linkOfRow = (row: Row): ReimbursementLinkData => ({
  ...row, admin: refOf(row.admin), arrangement: refOf(row.arrangement), evse: refOf(row.evse), evseUid: row.evse.evseUid,
}) as ReimbursementLinkData;

const links = (em: Em, where: FilterQuery<ReimbursementLink> = {}) =>
  new SeekList<ReimbursementLinkData>(em, { entity: ReimbursementLink, where, join: ['evse'], map: linkOfRow });

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
