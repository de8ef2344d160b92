import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isContractValidAt } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Customer, type CustomFields } from '../parties/customer.entity.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A customer's agreement under a plan, valid in [valid_from, valid_until). */
export const TokenSubscriptionSchema = defineEntity({
  name: 'TokenSubscription',
  tableName: 'msp_token_subscription',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    // The customer may belong to another administration: that must not hide the subscription
    // (no filtered join on this ref).
    customer: () => p.manyToOne(Customer).index().filters({ [ADMIN_SCOPE]: false }),
    plan: () => p.manyToOne(SubscriptionPlan).index(),
    buyerReference: p.string().nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    customFields: p.json<CustomFields>().onCreate(() => ({})),
    /** Sum of the monetary credit ledger, excl. VAT; kept in the same transaction as the ledger. */
    monetaryCreditBalance: p.decimal('string').precision(20).scale(6).default('0'),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class TokenSubscription extends TokenSubscriptionSchema.class {
  isValidAt(at: Date): boolean {
    return isContractValidAt(this, at);
  }
}
TokenSubscriptionSchema.setClass(TokenSubscription);
recordsEvents(TokenSubscription, 'msp_token_subscription');
