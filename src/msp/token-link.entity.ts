import { linkEntity } from '../contracts/contract-entity.ts';
import { defineLink } from '../contracts/contract-properties.ts';
import { Token } from './token.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

/**
 * A token's membership of a subscription. valid_from is optional and then defers to the
 * subscription's valid_from; validity is [from, until). A token that moved on to another
 * administration stays part of this link's history.
 */
export const TokenLinkSchema = defineLink('TokenLink', 'msp_token_link', {
  contract: ['subscription', () => TokenSubscription], covers: ['token', () => Token], coveredAcrossAdministrations: true,
});

/** isValidAt: the link alone; isUsableAt: the link and its subscription (src/contracts/contract-entity.ts). */
export class TokenLink extends linkEntity(TokenLinkSchema.class, (link) => link.subscription, {
  code: 'token_link_defunct', message: 'a defunct token link cannot be changed',
}) {}
TokenLinkSchema.setClass(TokenLink);
