import { instanceOverview, visibleSellers } from '../../src/parties/instance-overview.service.ts';
import type { Seller } from '../../src/parties/seller.entity.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso } from '../rails/schemas.ts';

export function serializeSeller(seller: Seller) {
  return {
    id: seller.id, name: seller.name, country: seller.country, external_reference: seller.externalReference ?? null,
    created_at: iso(seller.createdAt), updated_at: iso(seller.updatedAt),
  };
}

export const instanceRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/instance', tag: 'Instance', summary: 'This instance: name, product version, roaming', extension: true,
    handler: async ({ em }) => {
      const overview = await instanceOverview(em);
      return { name: overview.name, product_version: overview.productVersion, roaming_enabled: overview.roamingEnabled };
    },
  }),
  defineRoute({
    method: 'get', path: '/seller', tag: 'Instance', summary: 'Sellers of the administrations visible to the caller (not paged)', extension: true,
    handler: async ({ em }) => ({ items: (await visibleSellers(em)).map(serializeSeller) }),
  }),
];
