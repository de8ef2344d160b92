import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingBox } from './billing-box.entity.ts';

/** Stored bytes of a box's document (document-store.ts is the only reader and writer). */
export const DocumentFileSchema = defineEntity({
  name: 'DocumentFile',
  tableName: 'billing_document_file',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['box', 'filename'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    box: () => p.manyToOne(BillingBox),
    filename: p.string(),
    contentType: p.string(),
    size: p.integer(),
    bytes: p.blob().lazy(),
    primary: p.boolean().default(false),
    draft: p.boolean().default(false),
    createdAt: createdAtProperty(),
  },
});

export class DocumentFile extends DocumentFileSchema.class {}
DocumentFileSchema.setClass(DocumentFile);
