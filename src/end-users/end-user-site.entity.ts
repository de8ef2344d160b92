import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

/**
 * An end-user site: the app (or brand) end users sign up in. Every end user belongs to exactly
 * one site; an App credential belongs to one site and registers end users there.
 */
export const EndUserSiteSchema = defineEntity({
  name: 'EndUserSite',
  tableName: 'end_user_site',
  filters: adminScopeFilter('admin'),
  uniques: [{ name: 'end_user_site_default_unique', properties: ['admin'], where: { isDefault: true } }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    name: p.string(),
    /** The site of end users created without naming one (one per administration, made on first use). */
    isDefault: p.boolean().default(false),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class EndUserSite extends EndUserSiteSchema.class {}
EndUserSiteSchema.setClass(EndUserSite);
