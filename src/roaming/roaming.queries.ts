// Reads of the roaming setup both transports call (shared by all administrations: no scope), as
// plain data: seek-paged lists of connections, agreements and partners (each partner with its
// agreements, one query a page), one of each, and each by id for GraphQL's loaders.
import type { Em } from '../platform/orm.ts';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import { dataByIds, markData, readRow, readRows, rowData, type Row, type RowShape } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { RoamingAgreement } from './roaming-agreement.entity.ts';
import { RoamingConnection } from './roaming-connection.entity.ts';

export type RoamingConnectionData = Pick<RoamingConnection, 'id' | 'name' | 'kind' | 'protocol' | 'url' | 'notes' | 'externalReference'
  | 'createdAt' | 'updatedAt'> & { partner: { id: string } | null };

export type RoamingAgreementData = Pick<RoamingAgreement, 'id' | 'role' | 'validFrom' | 'validUntil' | 'defunct' | 'ratePlanId' | 'vatKind'
  | 'externalReference' | 'createdAt' | 'updatedAt'> & { connection: { id: string }; partner: { id: string } };

/** A partner with its agreements (defunct ones included), in id order. */
export type RoamingPartnerData = Pick<RoamingPartner, 'id' | 'name' | 'country' | 'cpoIds' | 'mspIds' | 'billingEmail' | 'vatNumber' | 'externalReference'
  | 'createdAt' | 'updatedAt'> & { roamingAgreements: RoamingAgreementData[] };

/** A connection (a row of the query builder, or an entity) as plain data. */
export function roamingConnectionData(em: Em, source: Row | RoamingConnection): RoamingConnectionData {
  return rowData(em, RoamingConnection, source) as unknown as RoamingConnectionData;
}

/** An agreement (a row of the query builder, or an entity) as plain data. */
export function roamingAgreementData(em: Em, source: Row | RoamingAgreement): RoamingAgreementData {
  return rowData(em, RoamingAgreement, source) as unknown as RoamingAgreementData;
}

const connectionShape = (em: Em): RowShape<RoamingConnectionData> => ({ entity: RoamingConnection, map: (row) => roamingConnectionData(em, row) });
const agreementShape = (em: Em): RowShape<RoamingAgreementData> => ({ entity: RoamingAgreement, map: (row) => roamingAgreementData(em, row) });
/** A partner's own row; withAgreements shapes it. */
const PARTNER_ROW: RowShape<Row & { id: string }> = { entity: RoamingPartner, map: (row) => row as Row & { id: string } };

export function roamingConnectionList(em: Em, filter: { partnerId?: string; kind?: string } = {}): SeekList<RoamingConnectionData> {
  const where = { ...(filter.partnerId ? { partner: filter.partnerId } : {}), ...(filter.kind ? { kind: filter.kind } : {}) };
  return new SeekList<RoamingConnectionData>(em, { ...connectionShape(em), where });
}

export function roamingAgreementList(em: Em, filter: { connectionId?: string; partnerId?: string } = {}): SeekList<RoamingAgreementData> {
  const where = { ...(filter.connectionId ? { connection: filter.connectionId } : {}), ...(filter.partnerId ? { partner: filter.partnerId } : {}) };
  return new SeekList<RoamingAgreementData>(em, { ...agreementShape(em), where });
}

/** The agreements of these partners (defunct ones included), by partner id, in id order: one query. */
export async function agreementsOfPartners(em: Em, partnerIds: string[]): Promise<Map<string, RoamingAgreementData[]>> {
  const byPartner = new Map<string, RoamingAgreementData[]>(partnerIds.map((id) => [id, []]));
  if (partnerIds.length === 0) return byPartner;
  const agreements = await readRows(em, agreementShape(em), { partner: { $in: partnerIds } }, { orderBy: { id: 'asc' } });
  for (const agreement of agreements) byPartner.get(agreement.partner.id)?.push(agreement);
  return byPartner;
}

/** Partners (rows of the query builder, or entities) with their agreements: one query. */
export async function withAgreements(em: Em, partners: (Row | RoamingPartner)[]): Promise<RoamingPartnerData[]> {
  const data = partners.map((partner) => rowData(em, RoamingPartner, partner));
  const agreements = await agreementsOfPartners(em, data.map((partner) => partner.id));
  return data.map((partner) => markData({ ...partner, roamingAgreements: agreements.get(partner.id) ?? [] }, 'RoamingPartner'));
}

/** Roaming partners by id, each page with its partners' agreements (one more query a page). */
export function roamingPartnerList(em: Em): SeekList<RoamingPartnerData> {
  return new SeekList<RoamingPartnerData>(em, { entity: RoamingPartner, enrich: (rows) => withAgreements(em, rows) });
}

export async function getRoamingConnection(em: Em, id: string): Promise<RoamingConnectionData> {
  const connection = isUuid(id) ? await readRow(em, connectionShape(em), { id }) : null;
  if (!connection) throw new NotFoundError('roaming connection');
  return connection;
}

export async function getRoamingAgreement(em: Em, id: string): Promise<RoamingAgreementData> {
  const agreement = isUuid(id) ? await readRow(em, agreementShape(em), { id }) : null;
  if (!agreement) throw new NotFoundError('roaming agreement');
  return agreement;
}

/** One partner with its agreements. */
export async function getRoamingPartner(em: Em, id: string): Promise<RoamingPartnerData> {
  const partner = isUuid(id) ? await readRow(em, PARTNER_ROW, { id }) : null;
  if (!partner) throw new NotFoundError('roaming partner');
  return (await withAgreements(em, [partner]))[0];
}

/** GraphQL's loaders: by id, null where there is none. */
export function roamingConnectionsByIds(em: Em, ids: readonly string[]): Promise<RoamingConnectionData[]> {
  return dataByIds(em, connectionShape(em), ids);
}

export function roamingAgreementsByIds(em: Em, ids: readonly string[]): Promise<RoamingAgreementData[]> {
  return dataByIds(em, agreementShape(em), ids);
}

export async function roamingPartnersByIds(em: Em, ids: readonly string[]): Promise<RoamingPartnerData[]> {
  const partners = await dataByIds(em, PARTNER_ROW, ids);
  const found = await withAgreements(em, partners.filter((partner) => partner));
  const byId = new Map(found.map((partner) => [partner.id, partner]));
  return partners.map((partner) => (partner ? byId.get(partner.id) : null)) as RoamingPartnerData[];
}
