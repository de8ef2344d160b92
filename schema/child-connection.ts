// The connections of many parents in one query, e.g. the billing addresses of 50 customers: every
// parent's page at once (src/platform/child-pages.ts: a LATERAL subquery per parent id, paged by the
// id index like a root connection), read through the ORM's own administration filter.
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import { childRows } from '../src/platform/child-pages.ts';
import type { Em } from '../src/platform/orm.ts';
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

/** The same as managed entities, for the node types still backed by entity classes. */
export async function childConnections<E extends { id: string }>(
  em: Em, entity: EntityName<E>, parentProperty: string, parentIds: readonly string[], args: ConnectionArgs,
) {
  const pages = await childRows(em, entity as EntityName<any>, parentProperty, parentIds, pageRange(args));
  return Promise.all(pages.map((rows) => toConnection(args, rows.map((row) => em.map(entity, row as EntityDictionary<E>) as E))));
}
