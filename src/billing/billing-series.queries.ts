// Series reads of both transports. `/billing-series/{id}` accepts the id, the bare external
// reference or `ext_ref.<reference>` (decisions.md).
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import { EXT_REF_PREFIX } from '../platform/resource-ref.ts';
import { SeekList } from '../platform/seek-page.ts';
import { BillingSeries, negatesDocumentAmounts } from './billing-series.entity.ts';

export type SeriesData = Pick<BillingSeries, 'id' | 'code' | 'name' | 'externalReference' | 'primaryDocumentType' | 'documentSource'
  | 'itemSources' | 'createdAt' | 'updatedAt'> & { adminId: string; negateDocumentAmounts: boolean };

const toData = (row: Record<string, any>): SeriesData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, code: row.code, name: row.name ?? null,
  externalReference: row.externalReference ?? null, primaryDocumentType: row.primaryDocumentType, documentSource: row.documentSource,
  itemSources: row.itemSources ?? [], createdAt: row.createdAt, updatedAt: row.updatedAt,
  negateDocumentAmounts: negatesDocumentAmounts(row.primaryDocumentType),
});

export function seriesList(em: Em, filter: { adminId?: string } = {}): SeekList<SeriesData> {
  return new SeekList<SeriesData>(em, { entity: BillingSeries, where: filter.adminId ? { admin: filter.adminId } : {}, map: toData });
}

export async function getSeries(em: Em, ref: string): Promise<SeriesData> {
  const externalReference = ref.startsWith(EXT_REF_PREFIX) ? ref.slice(EXT_REF_PREFIX.length) : ref;
  const series = (isUuid(ref) ? await em.findOne(BillingSeries, { id: ref }) : null)
    ?? (externalReference ? await em.findOne(BillingSeries, { externalReference }) : null);
  if (!series) throw new DomainError('not_found', `billing series ${ref} does not exist`);
  return toData({ ...series, admin: series.admin.id });
}
