import { PRODUCT_VERSION } from '../platform/config.ts';
import type { Em } from '../platform/orm.ts';
import { Administration } from './administration.entity.ts';
import { InstanceSettings, UNNAMED_INSTANCE } from './instance-settings.entity.ts';
import { Seller } from './seller.entity.ts';

export interface InstanceOverview { name: string; roamingEnabled: boolean; productVersion: string }

/** What GET /instance and the GraphQL `instance` answer; without a settings row, the defaults. */
export function overviewOf(settings: InstanceSettings | null): InstanceOverview {
  return { name: settings?.name ?? UNNAMED_INSTANCE, roamingEnabled: settings?.roamingEnabled ?? false, productVersion: PRODUCT_VERSION };
}

export async function instanceOverview(em: Em): Promise<InstanceOverview> {
  return overviewOf(await em.findOne(InstanceSettings, { id: 1 }));
}

/** Sellers of the administrations the caller can see. */
export async function visibleSellers(em: Em): Promise<Seller[]> {
  const admins = await em.find(Administration, { seller: { $ne: null } }, { fields: ['seller'] });
  const ids = [...new Set(admins.map((a) => a.seller!.id))];
  return ids.length ? em.find(Seller, { id: { $in: ids } }, { orderBy: { id: 'asc' } }) : [];
}
