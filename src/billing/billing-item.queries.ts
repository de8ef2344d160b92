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

const toData = (row: Record<string, any>): ItemData => ({
  id: row.id, boxId: row.box, rollupId: row.rollup, sourceKind: row.sourceKind, subjectId: row.subjectId, lineKey: row.lineKey,
  sourceVersion: row.sourceVersion, entry: row.entry, reversesItemId: row.reversesItemId ?? null, superseded: row.superseded,
  partyId: row.partyId, occurredAt: row.occurredAt, productCategory: row.productCategory, vatKind: row.vatKind, vatPercent: row.vatPercent,
  vatCountry: row.vatCountry, currency: row.currency, description: row.description, quantity: row.quantity, unit: row.unit,
  unitPrice: row.unitPrice, amountExclVat: row.amountExclVat, vatAmountUnrounded: row.vatAmountUnrounded, groupValue: row.groupValue ?? null,
  subItems: row.subItems ?? [], context: row.context ?? null, reference: row.reference ?? null,
  boxCategoryDescription: row.boxCategoryDescription ?? null, externalReference: row.externalReference ?? null, input: row.input ?? null,
  createdAt: row.createdAt,
});

export interface ItemFilter {
  boxId?: string;
  boxIds?: string[];
  rollupId?: string;
  sourceKinds?: string[];
}

export function itemList(em: Em, filter: ItemFilter): SeekList<ItemData> {
  return new SeekList<ItemData>(em, {
    entity: BillingItem,
    where: {
      ...(filter.boxId !== undefined ? { box: filter.boxId } : {}),
      ...(filter.boxIds !== undefined ? { box: { $in: filter.boxIds } } : {}),
      ...(filter.rollupId !== undefined ? { rollup: filter.rollupId } : {}),
      ...(filter.sourceKinds !== undefined ? { sourceKind: { $in: filter.sourceKinds } } : {}),
    },
    map: toData,
  });
}
