import { p } from '@mikro-orm/core';
import { ADMIN_SCOPE } from '../access/admin-scope.ts';
import { linkEntity } from '../contracts/contract-entity.ts';
import { defineLink } from '../contracts/contract-properties.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { Evse } from './evse.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** An EVSE counted by a CPO subscription (per-EVSE fees); valid_from null defers to the subscription. */
export const CpoSubscriptionEvseLinkSchema = defineLink('CpoSubscriptionEvseLink', 'cpo_subscription_evse_link', {
  subscription: () => p.manyToOne(CpoSubscription).index(),
  evse: () => p.manyToOne(Evse).index().filters({ [ADMIN_SCOPE]: false }),
});

/** isValidAt: the link alone; isUsableAt: the link and its subscription (src/contracts/contract-entity.ts). */
export class CpoSubscriptionEvseLink extends linkEntity(CpoSubscriptionEvseLinkSchema.class, (link) => link.subscription, {
  code: 'cpo_subscription_link_defunct', message: 'the CPO subscription EVSE link is defunct',
}) {}
CpoSubscriptionEvseLinkSchema.setClass(CpoSubscriptionEvseLink);
recordsEvents(CpoSubscriptionEvseLink, 'cpo_subscription_evse_link');
