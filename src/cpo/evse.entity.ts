import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { EvseLocation } from './evse-location.entity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** Connector power types; ac_2phase_split is a split-phase supply on two phases. */
export const POWER_TYPES = ['ac_1phase', 'ac_2phase', 'ac_2phase_split', 'ac_3phase', 'dc'] as const;

export interface Connector { id: string; standard?: string; format?: string; power_type?: string; max_power_kw?: string }

/** A charge point's EVSE, keyed by its `evseUid`; `evseId` can be reassigned between EVSEs. */
export const EvseSchema = defineEntity({
  name: 'Evse',
  tableName: 'cpo_evse',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    evseUid: identifierProperty().unique(),
    evseId: p.string().nullable(),
    /** `evseId` without separators, upper case: what sessions are matched on. */
    evseIdNormalized: p.string().nullable().index(),
    location: () => p.manyToOne(EvseLocation).nullable().index(),
    connectors: p.json<Connector[]>().onCreate(() => []),
    dropoutAllChargesessions: p.boolean().default(false),
    reimbursementMandatory: p.boolean().default(false),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class Evse extends EvseSchema.class {}
EvseSchema.setClass(Evse);
recordsEvents<Evse>(Evse, 'cpo_evse', { idOf: (e) => e.evseUid });
