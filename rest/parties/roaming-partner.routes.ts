import { RoamingPartner } from '../../src/parties/roaming-partner.entity.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso } from '../rails/schemas.ts';

export function serializeRoamingPartner(partner: RoamingPartner) {
  return {
    id: partner.id,
    name: partner.name,
    country: partner.country,
    cpo_ids: partner.cpoIds,
    msp_ids: partner.mspIds,
    external_reference: partner.externalReference ?? null,
    // Agreements arrive with the roaming work; the list is part of the resource already.
    roaming_agreements: [] as unknown[],
    created_at: iso(partner.createdAt),
    updated_at: iso(partner.updatedAt),
  };
}

export const roamingPartnerRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/roaming-partner', tag: 'Roaming', summary: 'List roaming partners', paged: true, createdGt: true,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      em, entity: RoamingPartner, rawQuery, path: '/main/v1/roaming-partner', createdGt: true, serialize: serializeRoamingPartner,
    }),
  }),
];
