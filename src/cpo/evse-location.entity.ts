import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A location holding EVSEs, keyed by its `locationId` (the CPMS's id). */
export const EvseLocationSchema = defineEntity({
  name: 'EvseLocation',
  tableName: 'cpo_evse_location',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    locationId: identifierProperty().unique(),
    name: p.string().nullable(),
    street: p.string().nullable(),
    postalCode: p.string().nullable(),
    city: p.string().nullable(),
    country: p.string().length(2).nullable(),
    latitude: p.decimal('string').precision(9).scale(6).nullable(),
    longitude: p.decimal('string').precision(9).scale(6).nullable(),
    cpoId: p.string().nullable(),
    timeZone: p.string().nullable(),
    deactivatedAt: p.datetime().nullable(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class EvseLocation extends EvseLocationSchema.class {}
EvseLocationSchema.setClass(EvseLocation);
recordsEvents<EvseLocation>(EvseLocation, 'cpo_evse_location', { idOf: (l) => l.locationId });
