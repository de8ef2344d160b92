// The administration reads both transports call (REST GET /administration, GraphQL
// `administrations` and the Administration node): plain data with the seller, the caller's
// administrations only.
import { ADMIN_SCOPE, type AdminScope } from '../access/admin-scope.ts';
import type { Em } from '../platform/orm.ts';
import { dataByIds, type RowShape } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Administration } from './administration.entity.ts';

export type AdministrationData = Pick<Administration, 'id' | 'name' | 'currency' | 'country' | 'localeId' | 'createdAt' | 'updatedAt'>
  & { seller?: { id: string; name: string; country: string } | null };

/** An administration's row with its seller joined (`readAll` below is the same as fixed SQL). */
const ADMINISTRATION: RowShape<AdministrationData> = {
  entity: Administration,
  fields: ['id', 'name', 'currency', 'country', 'localeId', 'createdAt', 'updatedAt'],
  join: ['seller'],
  map: (row) => ({
    id: row.id,
    name: row.name,
    currency: row.currency,
    country: row.country,
    localeId: row.localeId,
    seller: row.seller?.id ? { id: row.seller.id, name: row.seller.name, country: row.seller.country } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }),
};

// A fixed SQL string: the unpaged list is the cheapest read of all, so it builds no query per
// request. The scope condition is the administration filter's (admin-scope.ts) written as SQL.
const SELECT = `select a.id, a.name, a.currency, a.country, a.locale_id, a.created_at, a.updated_at,
  s.id as seller_id, s.name as seller_name, s.country as seller_country
  from administration a left join seller s on s.id = a.seller_id`;
const ORDER = ' order by a.id asc';

async function readAll(em: Em): Promise<AdministrationData[]> {
  const scope = em.getFilterParams<AdminScope>(ADMIN_SCOPE) as AdminScope | undefined;
  if (!scope || typeof scope.all !== 'boolean') throw new Error('administrations read without an administration scope');
  if (!scope.all && scope.ids.length === 0) return [];
  // Parameters are inlined and quoted by MikroORM (as for the query builder); id is citext, so `in` ignores case.
  const rows: Record<string, any>[] = scope.all
    ? await em.getConnection().execute(SELECT + ORDER, [], 'all', em.getTransactionContext())
    : await em.getConnection().execute(`${SELECT} where a.id in (?)${ORDER}`, [scope.ids], 'all', em.getTransactionContext());
  const platform = em.getPlatform();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    currency: row.currency,
    country: row.country,
    localeId: row.locale_id,
    seller: row.seller_id === null ? null : { id: row.seller_id, name: row.seller_name, country: row.seller_country },
    createdAt: platform.parseDate(row.created_at),
    updatedAt: platform.parseDate(row.updated_at),
  }));
}

/** Administrations by slug (a slug is any string). */
export function administrationList(em: Em): SeekList<AdministrationData> {
  return new SeekList<AdministrationData>(em, { ...ADMINISTRATION, isKey: () => true, all: readAll });
}

/** GraphQL's Administration loader: by slug, compared ignoring case. */
export function administrationsByIds(em: Em, ids: readonly string[]): Promise<AdministrationData[]> {
  return dataByIds(em, ADMINISTRATION, ids, () => true);
}
