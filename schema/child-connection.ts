// The connections of many parents in one query, e.g. the billing addresses of 50 customers: every
// parent's page at once (src/platform/child-pages.ts: a LATERAL subquery per parent id, paged by the
// id index like a root connection), read through the ORM's own administration filter.
import type { SeekRange } from '../src/platform/seek-page.ts';
import { pageRange, toConnection, type ConnectionArgs } from './connection.ts';

/**
 * The connections of `parentIds`, in their order, from a queries module's read of their pages
 * (e.g. `billingAddressesOfCustomers(em, customerIds, range)`: one page of plain data per parent).
 */
export async function childConnectionsOf<T extends { id: string }>(
  parentIds: readonly string[], args: ConnectionArgs, read: (parentIds: readonly string[], range: SeekRange) => Promise<T[][]>,
) {
  const pages = await read(parentIds, pageRange(args));
  return Promise.all(pages.map((rows) => toConnection(args, rows)));
}
