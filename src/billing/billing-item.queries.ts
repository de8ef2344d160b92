// Items of a box (the per-box session, custom input, reimbursement and roaming lists of both
// transports): plain data, ordered by id, filtered by source kind.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { BillingItem, type SubItem } from './billing-item.entity.ts';

export interface ItemData {
  id: string;
  boxId: string;
  rollupId: string;
  sourceKind: string;
  subjectId: string;
  lineKey: string;
  sourceVersion: number;
  entry: string;
  reversesItemId: string | null;
  superseded: boolean;
  partyId: string;
  occurredAt: Date;
  productCategory: string;
  vatKind: string;
  vatPercent: string;
  vatCountry: string;
  currency: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  amountExclVat: string;
  vatAmountUnrounded: string;
  groupValue: string | null;
  subItems: SubItem[];
  context: string | null;
  reference: string | null;
  boxCategoryDescription: string | null;
  externalReference: string | null;
  input: Record<string, unknown> | null;
  createdAt: Date;
}

const idOf = (value: unknown): string => (typeof value === 'object' && value !== null ? String((value as { id: string }).id) : String(value));

const toData = (row: Record<string, any>): ItemData => ({
  id: row.id, boxId: idOf(row.box), rollupId: idOf(row.rollup), sourceKind: row.sourceKind, subjectId: row.subjectId, lineKey: row.lineKey,
  sourceVersion: row.sourceVersion, entry: row.entry, reversesItemId: row.reversesItemId ?? null, superseded: row.superseded,
  partyId: row.partyId, occurredAt: row.occurredAt, productCategory: row.productCategory, vatKind: row.vatKind, vatPercent: row.vatPercent,
  vatCountry: row.vatCountry, currency: row.currency, description: row.description, quantity: row.quantity, unit: row.unit,
  unitPrice: row.unitPrice, amountExclVat: row.amountExclVat, vatAmountUnrounded: row.vatAmountUnrounded, groupValue: row.groupValue ?? null,
  subItems: row.subItems ?? [], context: row.context ?? null, reference: row.reference ?? null,
  boxCategoryDescription: row.boxCategoryDescription ?? null, externalReference: row.externalReference ?? null, input: row.input ?? null,
  createdAt: row.createdAt,
});

export interface ItemFilter {
  ids?: string[];
  boxId?: string;
  boxIds?: string[];
  rollupId?: string;
  sourceKinds?: string[];
}

export function itemList(em: Em, filter: ItemFilter): SeekList<ItemData> {
  return new SeekList<ItemData>(em, {
    entity: BillingItem,
    where: {
      ...(filter.ids !== undefined ? { id: { $in: filter.ids } } : {}),
      ...(filter.boxId !== undefined ? { box: filter.boxId } : {}),
      ...(filter.boxIds !== undefined ? { box: { $in: filter.boxIds } } : {}),
      ...(filter.rollupId !== undefined ? { rollup: filter.rollupId } : {}),
      ...(filter.sourceKinds !== undefined ? { sourceKind: { $in: filter.sourceKinds } } : {}),
    },
    map: toData,
  });
}

const ITEMS_OF_ROLLUPS = `select id from (select i.id, row_number() over (partition by i.rollup_id order by i.id) as n
    from billing_item i where i.rollup_id = any(?::uuid[])) x where n <= ? order by id`;

/** The first `limit` items of each roll-up, in one query (the review screen's dataloader). */
export async function itemsOfRollups(em: Em, rollupIds: readonly string[], limit: number): Promise<ItemData[][]> {
  const ids = (await em.execute<{ id: string }[]>(ITEMS_OF_ROLLUPS, [`{${rollupIds.join(',')}}`, limit])).map((r) => r.id);
  const items = ids.length ? await itemList(em, { ids }).all() : [];
  return rollupIds.map((rollupId) => items.filter((i) => i.rollupId === rollupId));
}
