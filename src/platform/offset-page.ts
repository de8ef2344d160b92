// Offset paging of the App API (decisions: `page` from 1, `page_size` default 50, at most 200).
// One row more than the page tells whether another page follows.
import type { EntityName, FilterQuery, FindOptions } from '@mikro-orm/core';
import type { Em } from './orm.ts';

export interface OffsetRange { page: number; pageSize: number }

export const OFFSET_DEFAULT_PAGE_SIZE = 50;
export const OFFSET_MAX_PAGE_SIZE = 200;
/** The highest `page` (nine digits), in REST and GraphQL. */
export const OFFSET_MAX_PAGE = 999_999_999;

export interface OffsetResult<T> { items: T[]; hasNextPage: boolean }

export async function findOffsetPage<E extends object>(
  em: Em, entity: EntityName<E>, where: FilterQuery<E>, range: OffsetRange, options: FindOptions<any, any, any, any> = {},
): Promise<OffsetResult<E>> {
  const rows = await em.find(entity as EntityName<any>, where as FilterQuery<any>, { ...options, limit: range.pageSize + 1, offset: (range.page - 1) * range.pageSize });
  return { items: rows.slice(0, range.pageSize) as E[], hasNextPage: rows.length > range.pageSize };
}
