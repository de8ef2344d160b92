import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingBox } from './billing-box.entity.ts';
import { BillingRollup } from './billing-rollup.entity.ts';

export const ITEM_ENTRIES = ['original', 'reversal'] as const;

/** A cost component of an item (a session's energy, time, flat fee ...). */
export interface SubItem {
  kind: string;
  label: string;
  volume: string;
  unit: string;
  amount_excl_vat: string;
}

/**
 * One billable thing in a box: what an item source produced for a subject (a session, a
 * subscription's fee for a period, a custom item), at a version. Rows are written by set-based
 * SQL (collect-items.ts); a reversal negates an original of a closed box.
 */
export const BillingItemSchema = defineEntity({
  name: 'BillingItem',
  tableName: 'billing_item',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['sourceKind', 'subjectId', 'lineKey', 'sourceVersion', 'entry'] }],
  // (source_kind, subject_id) look-ups use the unique index's prefix.
  indexes: [{ properties: ['box', 'id'] }, { properties: ['rollup'] }],
  properties: {
    id: idProperty(),
    // No foreign keys: the billing core writes an item's administration, box and roll-up together
    // (the roll-up's own keys hold its box and administration), and roll-ups and boxes are never
    // deleted (an emptied roll-up stays, hidden from reads). A key check per row was a third of
    // writing the items of a backfill.
    admin: () => p.manyToOne(Administration).createForeignKeyConstraint(false),
    box: () => p.manyToOne(BillingBox).createForeignKeyConstraint(false),
    rollup: () => p.manyToOne(BillingRollup).createForeignKeyConstraint(false),
    sourceKind: p.string(),
    subjectId: p.string(),
    lineKey: p.string().default(''),
    sourceVersion: p.integer().default(1),
    entry: p.enum(ITEM_ENTRIES).default('original'),
    reversesItemId: p.uuid().nullable(),
    /** A later version replaced this item (it was reversed, or updated in place). */
    superseded: p.boolean().default(false),
    partyId: p.uuid(),
    occurredAt: p.datetime(),
    productCategory: p.string(),
    vatKind: p.string(),
    vatPercent: p.decimal('string').precision(12).scale(6),
    vatCountry: p.string().length(2),
    currency: p.string().length(3),
    description: p.text(),
    quantity: p.decimal('string').precision(20).scale(6),
    unit: p.string(),
    unitPrice: p.decimal('string').precision(20).scale(6),
    amountExclVat: p.decimal('string').precision(20).scale(2),
    vatAmountUnrounded: p.decimal('string').precision(20).scale(6),
    groupValue: p.string().nullable(),
    subItems: p.json<SubItem[]>().onCreate(() => []),
    context: p.string().nullable(),
    reference: p.string().nullable(),
    boxCategoryDescription: p.string().nullable(),
    externalReference: identifierProperty().nullable(),
    /** A custom item's request, compared on resubmission. */
    input: p.json<Record<string, unknown>>().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingItem extends BillingItemSchema.class {}
BillingItemSchema.setClass(BillingItem);
