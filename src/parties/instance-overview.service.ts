import { PRODUCT_VERSION } from '../platform/config.ts';
import type { Em } from '../platform/orm.ts';
import { Administration } from './administration.entity.ts';
import { InstanceSettings } from './instance-settings.entity.ts';
import { Seller } from './seller.entity.ts';

export async function instanceOverview(em: Em) {
  const settings = await em.findOne(InstanceSettings, { id: 1 });
  return { name: settings?.name ?? 'unnamed instance', roamingEnabled: settings?.roamingEnabled ?? false, productVersion: PRODUCT_VERSION };
}

/** Sellers of the administrations the caller can see. */
export async function visibleSellers(em: Em): Promise<Seller[]> {
  const admins = await em.find(Administration, { seller: { $ne: null } }, { fields: ['seller'] });
  const ids = [...new Set(admins.map((a) => a.seller!.id))];
  return ids.length ? em.find(Seller, { id: { $in: ids } }, { orderBy: { id: 'asc' } }) : [];
}
