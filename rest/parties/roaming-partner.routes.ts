import { RoamingPartner } from '../../src/parties/roaming-partner.entity.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const roamingPartnerShape = representation('RoamingPartner', {
  id: t.string(),
  name: t.string(),
  country: t.string(),
  cpo_ids: t.array(t.string()),
  msp_ids: t.array(t.string()),
  external_reference: t.nullable(t.string()),
  roaming_agreements: t.array(t.json('A roaming agreement (arrives with the roaming work; empty so far).')),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeRoamingPartner(partner: RoamingPartner): Infer<typeof roamingPartnerShape> {
  return {
    id: partner.id,
    name: partner.name,
    country: partner.country,
    cpo_ids: partner.cpoIds,
    msp_ids: partner.mspIds,
    external_reference: partner.externalReference ?? null,
    // Agreements arrive with the roaming work; the list is part of the resource already.
    roaming_agreements: [],
    created_at: iso(partner.createdAt),
    updated_at: iso(partner.updatedAt),
  };
}

export const roamingPartnerRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/roaming-partner', tag: 'Roaming', summary: 'List roaming partners', paged: true, createdGt: true,
    response: roamingPartnerShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      em, entity: RoamingPartner, rawQuery, path: '/main/v1/roaming-partner', createdGt: true, serialize: serializeRoamingPartner,
    }),
  }),
];
