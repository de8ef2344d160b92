import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

/** A plan-or-customer correction: `oldSubscription` ended at `correctedFrom`, where `newSubscription` took over. */
export const SubscriptionCorrectionSchema = defineEntity({
  name: 'SubscriptionCorrection',
  tableName: 'msp_subscription_correction',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    oldSubscription: () => p.manyToOne(TokenSubscription).index(),
    newSubscription: () => p.manyToOne(TokenSubscription).index(),
    correctedFrom: p.datetime(),
    /** Asked for by the caller: the periods already billed with the old subscription's fees were billed again (fee-correction.ts). */
    recurringCostCorrection: p.boolean().default(false),
    /** When the old subscription's credit moved to the successor: at `correctedFrom`, not before (credit-succession.ts). */
    creditMovedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
  },
});

export class SubscriptionCorrection extends SubscriptionCorrectionSchema.class {}
SubscriptionCorrectionSchema.setClass(SubscriptionCorrection);
