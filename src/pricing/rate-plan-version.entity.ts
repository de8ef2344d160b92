import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import type { RatePlanVersionDefinition } from './rate-plan-definition.ts';
import { RatePlan } from './rate-plan.entity.ts';

/** The rates of a plan from `validFrom` until the next version's. Immutable: a change is a new version. */
export const RatePlanVersionSchema = defineEntity({
  name: 'RatePlanVersion',
  tableName: 'pricing_rate_plan_version',
  uniques: [{ properties: ['ratePlan', 'validFrom'] }],
  properties: {
    id: idProperty(),
    ratePlan: () => p.manyToOne(RatePlan),
    validFrom: p.datetime(),
    definition: p.json<RatePlanVersionDefinition>(),
    createdAt: createdAtProperty(),
  },
});

export class RatePlanVersion extends RatePlanVersionSchema.class {}
RatePlanVersionSchema.setClass(RatePlanVersion);
