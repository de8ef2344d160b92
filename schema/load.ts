import type { EntityName, FindOptions } from '@mikro-orm/core';
import { isUuid } from '../src/platform/ids.ts';
import type { Em } from '../src/platform/orm.ts';

export interface LoadOptions {
  /** Ids that cannot exist are not sent to the database (a uuid column rejects them). */
  isId?: (id: string) => boolean;
  populate?: string[];
}

/**
 * A dataloader batch: one query for all ids, results in the order asked, null for an id the
 * caller does not see (the em is scoped). Ids are compared case-insensitively (citext slugs).
 * Typed without the null because Pothos' loader type has none; the plugin answers null for it.
 */
export async function loadByIds<E extends { id: string }>(em: Em, entity: EntityName<E>, ids: readonly string[], options: LoadOptions = {}): Promise<E[]> {
  const isId = options.isId ?? isUuid;
  const wanted = [...new Set(ids.filter(isId))];
  const find = { populate: options.populate } as FindOptions<any, any, any, any>;
  const found = (wanted.length ? await em.find(entity as EntityName<any>, { id: { $in: wanted } }, find) : []) as E[];
  const byId = new Map(found.map((entity) => [entity.id.toLowerCase(), entity]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null) as E[];
}
