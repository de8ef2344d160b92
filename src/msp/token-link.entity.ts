import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isValidAt } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Token } from './token.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

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
    return this.validFrom ?? this.subscription.validFrom;
  }

  isValidAt(at: Date): boolean {
    return !this.defunct && isValidAt({ validFrom: this.effectiveFrom(), validUntil: this.validUntil }, at);
  }
}
TokenLinkSchema.setClass(TokenLink);

type Validity = { validFrom?: Date | null; validUntil?: Date | null; defunct: boolean };

/**
 * Whether a token may start a session through this link at `at` (the spec's token validity, 1-2):
 * the link (from its own start, else the subscription's) and its subscription are both valid and
 * not defunct. REST is_currently_valid and GraphQL isCurrentlyValid both answer this.
 */
export function linkUsableAt(link: Validity, subscription: Validity & { validFrom: Date }, at: Date): boolean {
  return !link.defunct && !subscription.defunct
    && isValidAt({ validFrom: link.validFrom ?? subscription.validFrom, validUntil: link.validUntil }, at)
    && isValidAt(subscription, at);
}
