import { p } from '@mikro-orm/core';
import { ADMIN_SCOPE } from '../access/admin-scope.ts';
import { linkEntity } from '../contracts/contract-entity.ts';
import { defineLink } from '../contracts/contract-properties.ts';
import { Token } from './token.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/**
 * A token's membership of a subscription. valid_from is optional and then defers to the
 * subscription's valid_from; validity is [from, until).
 */
export const TokenLinkSchema = defineLink('TokenLink', 'msp_token_link', {
  subscription: () => p.manyToOne(TokenSubscription).index(),
  // A token that moved on to another administration stays part of this link's history
  // (no filtered join on this ref).
  token: () => p.manyToOne(Token).index().filters({ [ADMIN_SCOPE]: false }),
});

/** isValidAt: the link alone; isUsableAt: the link and its subscription (src/contracts/contract-entity.ts). */
export class TokenLink extends linkEntity(TokenLinkSchema.class, (link) => link.subscription, {
  code: 'token_link_defunct', message: 'a defunct token link cannot be changed',
}) {}
TokenLinkSchema.setClass(TokenLink);
recordsEvents(TokenLink, 'msp_token_link');
