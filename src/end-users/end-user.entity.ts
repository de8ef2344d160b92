import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';
import { EndUserSite } from './end-user-site.entity.ts';

/** A person using the operator's app; what they may see comes from their authorizations. */
export const EndUserSchema = defineEntity({
  name: 'EndUser',
  tableName: 'end_user',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    /** Exactly one site (nullable only for rows older than sites). */
    site: () => p.manyToOne(EndUserSite).nullable().index(),
    username: identifierProperty().unique(),
    email: identifierProperty().nullable().unique(),
    name: p.string().nullable(),
    localeId: p.string().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class EndUser extends EndUserSchema.class {}
EndUserSchema.setClass(EndUser);
recordsEvents(EndUser, 'end_user');
