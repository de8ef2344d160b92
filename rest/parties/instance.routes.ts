import * as yup from 'yup';
import { instanceOverview, type InstanceOverview } from '../../src/parties/instance.queries.ts';
import { visibleSellers, type SellerData } from '../../src/parties/seller.queries.ts';
import { updateInstanceSettings, type InstanceFields } from '../../src/parties/update-instance-settings.service.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { listOf } from '../rails/pagination.ts';
import { iso, text } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const sellerShape = representation('Seller', {
  id: t.string(),
  name: t.string(),
  country: t.string(),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const instanceShape = representation('Instance', {
  name: t.string(),
  product_version: t.string(),
  roaming_enabled: t.boolean(),
});

export const serializeInstance = (overview: InstanceOverview): Infer<typeof instanceShape> =>
  ({ name: overview.name, product_version: overview.productVersion, roaming_enabled: overview.roamingEnabled });

const instanceBody = yup.object({
  name: text().nullable(),
  roaming_enabled: yup.boolean().nullable(),
});
const INSTANCE: FieldMapping = { name: 'name', roaming_enabled: 'roamingEnabled' };

export function serializeSeller(seller: SellerData): Infer<typeof sellerShape> {
  return {
    id: seller.id, name: seller.name, country: seller.country, external_reference: seller.externalReference ?? null,
    created_at: iso(seller.createdAt), updated_at: iso(seller.updatedAt),
  };
}

export const instanceRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/instance', tag: 'Instance', summary: 'This instance: name, product version, roaming', extension: true,
    response: instanceShape,
    handler: async ({ em }) => serializeInstance(await instanceOverview(em)),
  }),
  defineRoute({
    method: 'post', path: '/instance', graphql: 'updateInstance', tag: 'Instance', summary: 'Merge-update this instance: name, roaming calculation on or off', extension: true,
    description: 'Shared by every administration: only a credential without an administration limit may change it (403 `forbidden` otherwise). '
      + '`roaming_enabled` switches the roaming cost calculation of sessions processed from then on.',
    body: instanceBody, response: instanceShape,
    handler: async ({ em, body }) => serializeInstance(await updateInstanceSettings(em, patchFrom(body, INSTANCE) as Patch<InstanceFields>)),
  }),
  defineRoute({
    method: 'get', path: '/seller', tag: 'Instance', summary: 'Sellers of the administrations visible to the caller (not paged)', extension: true,
    response: listOf(sellerShape),
    handler: async ({ em }) => ({ items: (await visibleSellers(em)).map(serializeSeller) }),
  }),
];
