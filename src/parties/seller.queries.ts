// Sellers as GET /seller answers them: those of the administrations the caller can see.
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { readRows } from '../platform/plain-reads.ts';
import { Administration } from './administration.entity.ts';
import { Seller } from './seller.entity.ts';

export type SellerData = Data<Seller>;

/** Sellers of the administrations the caller can see (the administration filter), by id. */
export async function visibleSellers(em: Em): Promise<SellerData[]> {
  const admins = await readRows(em, { entity: Administration, fields: ['seller'], map: (row) => ({ sellerId: row.seller as string }) }, { seller: { $ne: null } });
  const ids = [...new Set(admins.map((admin) => admin.sellerId))];
  return ids.length ? readRows(em, { entity: Seller, map: (row) => row as SellerData }, { id: { $in: ids } }, { orderBy: { id: 'asc' } }) : [];
}
