import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Evse } from './evse.entity.ts';

/**
 * Which EVSE held an EVSE ID when: an EVSE ID can move to another EVSE, and a session is matched
 * to the EVSE that held its EVSE ID at the session's start, in [valid_from, valid_until).
 */
export const EvseIdAssignmentSchema = defineEntity({
  name: 'EvseIdAssignment',
  tableName: 'cpo_evse_id_assignment',
  indexes: [{ properties: ['evseIdNormalized', 'validFrom'] }],
  properties: {
    id: idProperty(),
    evse: () => p.manyToOne(Evse).index().filters({ [ADMIN_SCOPE]: false }),
    heldEvseId: p.string(),
    evseIdNormalized: p.string(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    createdAt: createdAtProperty(),
  },
});

export class EvseIdAssignment extends EvseIdAssignmentSchema.class {}
EvseIdAssignmentSchema.setClass(EvseIdAssignment);
