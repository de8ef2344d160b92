import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

export const PRIMARY_DOCUMENT_TYPES = ['invoice', 'debit_note', 'credit_note', 'purchase_order', 'self_billing_invoice'] as const;
export type PrimaryDocumentType = (typeof PRIMARY_DOCUMENT_TYPES)[number];
export const DOCUMENT_SOURCES = ['service', 'external'] as const;

/** The document types that show the stored amounts negated (the box's `negate_document_amounts`): the administration's expenses. */
const NEGATED_DOCUMENT_TYPES: readonly string[] = ['self_billing_invoice', 'purchase_order'] satisfies PrimaryDocumentType[];
export const negatesDocumentAmounts = (type: string): boolean => NEGATED_DOCUMENT_TYPES.includes(type);
/** The same, as an SQL condition on the series column `column`. */
export const negatesDocumentAmountsSql = (column: string): string => `${column} in (${NEGATED_DOCUMENT_TYPES.map((t) => `'${t}'`).join(', ')})`;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

/** A numbering series of an administration's billing documents. */
export const BillingSeriesSchema = defineEntity({
  name: 'BillingSeries',
  tableName: 'billing_series',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['admin', 'code'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    code: identifierProperty(),
    name: p.string().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    primaryDocumentType: p.enum(PRIMARY_DOCUMENT_TYPES).default('invoice'),
    /** Who renders the documents: the service, or an external system that uploads them at finalize. */
    documentSource: p.enum(DOCUMENT_SOURCES).default('service'),
    /** Item source kinds this series bills (msp_session, msp_subscription_fee, custom, ...); empty: the default series. */
    itemSources: p.json<string[]>().onCreate(() => []),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingSeries extends BillingSeriesSchema.class {}
BillingSeriesSchema.setClass(BillingSeries);
