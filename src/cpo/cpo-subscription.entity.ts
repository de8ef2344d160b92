import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { DomainError } from '../platform/errors.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Customer } from '../parties/customer.entity.ts';
import { CpoSubscriptionPlan } from './cpo-subscription-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A customer's CPO subscription (recurring fees), valid in [valid_from, valid_until). */
export const CpoSubscriptionSchema = defineEntity({
  name: 'CpoSubscription',
  tableName: 'cpo_subscription',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    customer: () => p.manyToOne(Customer).index().filters({ [ADMIN_SCOPE]: false }),
    plan: () => p.manyToOne(CpoSubscriptionPlan).index(),
    buyerReference: p.string().nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    customFields: p.json<Record<string, unknown>>().onCreate(() => ({})),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CpoSubscription extends CpoSubscriptionSchema.class {
  assertChangeable(): void {
    if (this.defunct) throw new DomainError('cpo_subscription_defunct', 'the CPO subscription is defunct');
  }
}
CpoSubscriptionSchema.setClass(CpoSubscription);
recordsEvents(CpoSubscription, 'cpo_subscription');
