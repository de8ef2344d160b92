import { instanceOverview, visibleSellers } from '../../src/parties/instance-overview.service.ts';
import type { Seller } from '../../src/parties/seller.entity.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { listOf } from '../rails/pagination.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const sellerShape = representation('Seller', {
  id: t.string(),
  name: t.string(),
  country: t.string(),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const instanceShape = representation('Instance', { name: t.string(), product_version: t.string(), roaming_enabled: t.boolean() });

export function serializeSeller(seller: Seller): Infer<typeof sellerShape> {
  return {
    id: seller.id, name: seller.name, country: seller.country, external_reference: seller.externalReference ?? null,
    created_at: iso(seller.createdAt), updated_at: iso(seller.updatedAt),
  };
}

export const instanceRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/instance', tag: 'Instance', summary: 'This instance: name, product version, roaming', extension: true,
    response: instanceShape,
    handler: async ({ em }): Promise<Infer<typeof instanceShape>> => {
      const overview = await instanceOverview(em);
      return { name: overview.name, product_version: overview.productVersion, roaming_enabled: overview.roamingEnabled };
    },
  }),
  defineRoute({
    method: 'get', path: '/seller', tag: 'Instance', summary: 'Sellers of the administrations visible to the caller (not paged)', extension: true,
    response: listOf(sellerShape),
    handler: async ({ em }) => ({ items: (await visibleSellers(em)).map(serializeSeller) }),
  }),
];
