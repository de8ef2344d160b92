import { linkEntity } from '../contracts/contract-entity.ts';
import { defineLink } from '../contracts/contract-properties.ts';
import { CpoSubscription } from './cpo-subscription.entity.ts';
import { Evse } from './evse.entity.ts';

/** An EVSE counted by a CPO subscription (per-EVSE fees); valid_from null defers to the subscription. */
export const CpoSubscriptionEvseLinkSchema = defineLink('CpoSubscriptionEvseLink', 'cpo_subscription_evse_link', {
  contract: ['subscription', () => CpoSubscription], covers: ['evse', () => Evse], coveredAcrossAdministrations: true,
});

/** isValidAt: the link alone; isUsableAt: the link and its subscription (src/contracts/contract-entity.ts). */
export class CpoSubscriptionEvseLink extends linkEntity(CpoSubscriptionEvseLinkSchema.class, (link) => link.subscription, {
  code: 'cpo_subscription_link_defunct', message: 'the CPO subscription EVSE link is defunct',
}) {}
CpoSubscriptionEvseLinkSchema.setClass(CpoSubscriptionEvseLink);
