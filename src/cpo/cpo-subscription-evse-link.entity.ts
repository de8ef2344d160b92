import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isLinkValidAt } from '../platform/validity.ts';
import { DomainError } from '../platform/errors.ts';
import { Administration } from '../parties/administration.entity.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { Evse } from './evse.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** An EVSE counted by a CPO subscription (per-EVSE fees); valid_from null defers to the subscription. */
export const CpoSubscriptionEvseLinkSchema = defineEntity({
  name: 'CpoSubscriptionEvseLink',
  tableName: 'cpo_subscription_evse_link',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    subscription: () => p.manyToOne(CpoSubscription).index(),
    evse: () => p.manyToOne(Evse).index().filters({ [ADMIN_SCOPE]: false }),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CpoSubscriptionEvseLink extends CpoSubscriptionEvseLinkSchema.class {
  /** The link and its subscription are both valid at `at` (the subscription must be loaded). */
  isValidAt(at: Date): boolean {
    return isLinkValidAt(this, this.subscription, at);
  }

  assertChangeable(): void {
    if (this.defunct) throw new DomainError('cpo_subscription_link_defunct', 'the CPO subscription EVSE link is defunct');
  }
}
CpoSubscriptionEvseLinkSchema.setClass(CpoSubscriptionEvseLink);
recordsEvents(CpoSubscriptionEvseLink, 'cpo_subscription_evse_link');
