import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isContractValidAt } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { EndUser } from './end-user.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** driver: sees the subscription and its sessions; manager: may also cancel it and switch its plan. */
export const SUBSCRIPTION_AUTHORIZATION_ROLES = ['driver', 'manager'] as const;

/** An end user's authorization over an MSP token subscription, valid in [valid_from, valid_until). */
export const SubscriptionAuthorizationSchema = defineEntity({
  name: 'SubscriptionAuthorization',
  tableName: 'end_user_subscription_authorization',
  filters: adminScopeFilter('admin'),
  uniques: [{ name: 'end_user_subscription_authorization_valid_pair_unique', properties: ['endUser', 'subscription'], where: { defunct: false } }],
  properties: {
    id: idProperty(),
    endUser: () => p.manyToOne(EndUser),
    subscription: () => p.manyToOne(TokenSubscription).index().filters({ [ADMIN_SCOPE]: false }),
    admin: () => p.manyToOne(Administration),
    role: p.enum(SUBSCRIPTION_AUTHORIZATION_ROLES).default('driver'),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class SubscriptionAuthorization extends SubscriptionAuthorizationSchema.class {
  isValidAt(at: Date): boolean {
    return isContractValidAt(this, at);
  }
}
SubscriptionAuthorizationSchema.setClass(SubscriptionAuthorization);
recordsEvents(SubscriptionAuthorization, 'end_user_authorization_msp_token_subscription');
