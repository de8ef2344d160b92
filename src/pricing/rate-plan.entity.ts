import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';

/**
 * Rates in one currency, shared between administrations of that currency: `adminIds` lists
 * them, empty = every administration of the currency. Not admin-scoped by a filter: visibility
 * is decided in rate-plan-access.ts.
 */
export const RatePlanSchema = defineEntity({
  name: 'RatePlan',
  tableName: 'pricing_rate_plan',
  properties: {
    id: idProperty(),
    name: p.string(),
    currency: p.string().length(3).index(),
    adminIds: p.json<string[]>().onCreate(() => []),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class RatePlan extends RatePlanSchema.class {}
RatePlanSchema.setClass(RatePlan);
