import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isLinkCurrentlyValid, isLinkOwnValidAt, linkInterval } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Token } from './token.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/**
 * A token's membership of a subscription. valid_from is optional and then defers to the
 * subscription's valid_from; validity is [from, until).
 */
export const TokenLinkSchema = defineEntity({
  name: 'TokenLink',
  tableName: 'msp_token_link',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    subscription: () => p.manyToOne(TokenSubscription).index(),
    // A token that moved on to another administration stays part of this link's history
    // (no filtered join on this ref).
    token: () => p.manyToOne(Token).index().filters({ [ADMIN_SCOPE]: false }),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class TokenLink extends TokenLinkSchema.class {
  /** The start that counts: the link's own, else the subscription's. */
  effectiveFrom(): Date {
    return linkInterval(this, this.subscription).validFrom;
  }

  /** The link alone (its subscription's validity aside). */
  isValidAt(at: Date): boolean {
    return isLinkOwnValidAt(this, this.subscription, at);
  }
}
TokenLinkSchema.setClass(TokenLink);
recordsEvents(TokenLink, 'msp_token_link');

/**
 * The spec's token validity 1-2 for this link now (REST is_currently_valid, GraphQL isCurrentlyValid):
 * the link and its subscription are both valid and not defunct (src/platform/validity.ts).
 */
export const linkCurrentlyValid = (link: TokenLink, subscription: TokenLink['subscription']): boolean => isLinkCurrentlyValid(link, subscription);
