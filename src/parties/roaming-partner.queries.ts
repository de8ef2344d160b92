// Roaming partner reads (REST GET /roaming-partner/{id}, GraphQL `roamingPartners` and the
// RoamingPartner node): plain data. Partners are shared by the whole instance (no administration
// filter). Their agreements are the roaming area's (src/roaming/roaming.queries.ts).
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { dataByIds, dataByRef, type RowShape } from '../platform/plain-rows.ts';
import { SeekList } from '../platform/seek-page.ts';
import { RoamingPartner } from './roaming-partner.entity.ts';

export type RoamingPartnerData = Data<RoamingPartner>;

const PARTNER: RowShape<RoamingPartnerData> = { entity: RoamingPartner, map: (row) => row as RoamingPartnerData };

/** Every roaming partner, by id. */
export function roamingPartnerList(em: Em): SeekList<RoamingPartnerData> {
  return new SeekList<RoamingPartnerData>(em, PARTNER);
}

export async function getRoamingPartner(em: Em, id: string): Promise<RoamingPartnerData> {
  const partner = isUuid(id) ? await dataByRef(em, PARTNER, { id }) : null;
  if (!partner) throw new NotFoundError('roaming partner');
  return partner;
}

/** GraphQL's RoamingPartner loader. */
export function roamingPartnersByIds(em: Em, ids: readonly string[]): Promise<RoamingPartnerData[]> {
  return dataByIds(em, PARTNER, ids);
}

/** A partner a service created or changed, as the answers show it. */
export function roamingPartnerData(partner: RoamingPartner): RoamingPartnerData {
  return plainData(partner);
}
