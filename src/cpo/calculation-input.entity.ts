import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const INPUT_OWNERS = ['plan', 'arrangement'] as const;
export type InputOwner = (typeof INPUT_OWNERS)[number];

/**
 * A price of one cost component (or a custom variable) from valid_from on, set on a reimbursement
 * plan or on an arrangement (calculation-inputs.ts decides which applies).
 */
export const CalculationInputSchema = defineEntity({
  name: 'CalculationInput',
  tableName: 'cpo_reimbursement_calculation_input',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['ownerKind', 'ownerId', 'validFrom', 'componentType', 'varName'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    ownerKind: p.enum(INPUT_OWNERS),
    ownerId: p.uuid(),
    validFrom: p.datetime(),
    /** A component of the plan, or `custom` with varName. */
    componentType: p.string(),
    varName: p.string().default(''),
    value: p.decimal('string').precision(20).scale(6),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CalculationInput extends CalculationInputSchema.class {}
CalculationInputSchema.setClass(CalculationInput);
recordsEvents(CalculationInput, 'cpo_calculation_input');
