import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A CPO subscription plan (hosting, maintenance fees); its recurring costs live in versions keyed by valid_from. */
export const CpoSubscriptionPlanSchema = defineEntity({
  name: 'CpoSubscriptionPlan',
  tableName: 'cpo_subscription_plan',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    name: p.string(),
    description: p.text().nullable(),
    /** The intended window for new subscriptions; not enforced when subscriptions are created. */
    publishFrom: p.datetime().nullable(),
    publishUntil: p.datetime().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CpoSubscriptionPlan extends CpoSubscriptionPlanSchema.class {}
CpoSubscriptionPlanSchema.setClass(CpoSubscriptionPlan);
recordsEvents(CpoSubscriptionPlan, 'cpo_subscription_plan');
