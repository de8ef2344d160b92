// Reads of the roaming setup (shared by all administrations: no scope): seek-paged lists of
// connections and agreements, and the agreements of a page of partners in one query.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { RoamingAgreement } from './roaming-agreement.entity.ts';
import { RoamingConnection } from './roaming-connection.entity.ts';

export function roamingConnectionList(em: Em, filter: { partnerId?: string; kind?: string } = {}): SeekList<RoamingConnection> {
  const where = { ...(filter.partnerId ? { partner: filter.partnerId } : {}), ...(filter.kind ? { kind: filter.kind } : {}) };
  return new SeekList<RoamingConnection>(em, { entity: RoamingConnection, where, entities: true });
}

export function roamingAgreementList(em: Em, filter: { connectionId?: string; partnerId?: string } = {}): SeekList<RoamingAgreement> {
  const where = { ...(filter.connectionId ? { connection: filter.connectionId } : {}), ...(filter.partnerId ? { partner: filter.partnerId } : {}) };
  return new SeekList<RoamingAgreement>(em, { entity: RoamingAgreement, where, entities: true });
}

/** The agreements of these partners (defunct ones included), by partner id, in id order. */
export async function agreementsOfPartners(em: Em, partnerIds: string[]): Promise<Map<string, RoamingAgreement[]>> {
  const byPartner = new Map<string, RoamingAgreement[]>(partnerIds.map((id) => [id, []]));
  if (partnerIds.length === 0) return byPartner;
  for (const agreement of await em.find(RoamingAgreement, { partner: { $in: partnerIds } }, { orderBy: { id: 'asc' } })) {
    byPartner.get(agreement.partner.id)?.push(agreement);
  }
  return byPartner;
}

/** Roaming partners with their agreements: each page loads the agreements of its partners in one query. */
export class RoamingPartnerList extends SeekList<RoamingPartner> {
  readonly agreements = new Map<string, RoamingAgreement[]>();
  private readonly db: Em;

  constructor(em: Em) {
    super(em, { entity: RoamingPartner, entities: true });
    this.db = em;
  }

  override async page(range: Parameters<SeekList<RoamingPartner>['page']>[0]): Promise<RoamingPartner[]> {
    const rows = await super.page(range);
    for (const [id, list] of await agreementsOfPartners(this.db, rows.map((p) => p.id))) this.agreements.set(id, list);
    return rows;
  }
}
