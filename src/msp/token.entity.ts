import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { FORM_FACTOR_IDS, UID_TYPE_IDS } from './token-reference-data.ts';
import { TokenSeries } from './token-series.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const FULFILMENT_STATES = ['none', 'requested', 'activated'] as const;

/** A charge token (card, keychain, app, vehicle), keyed in the API by its EVCO id. */
export const TokenSchema = defineEntity({
  name: 'Token',
  tableName: 'msp_token',
  filters: adminScopeFilter('currentAdmin'),
  // An administration's tokens in evco_id order (its list pages; tokenList) read this index in order.
  // The OCPI tokens module reads the tokens in (updated_at, id) order, filtered on updated_at.
  indexes: [{ properties: ['currentAdmin', 'evcoId'] }, { properties: ['updatedAt', 'id'] }],
  properties: {
    id: idProperty(),
    /** Normalized eMA ID (no separators), unique case-insensitively; original casing kept. */
    evcoId: p.string().columnType('citext').unique(),
    uid: p.string().columnType('citext').nullable().index(),
    uidType: p.enum(UID_TYPE_IDS).nullable(),
    formFactor: p.enum(FORM_FACTOR_IDS).default('card'),
    brandCode: p.string().nullable(),
    // A token moves between administrations: its series and first administration may lie
    // outside the caller's scope without hiding the token (no filtered join on these refs).
    series: () => p.manyToOne(TokenSeries).nullable().filters({ [ADMIN_SCOPE]: false }),
    initialAdmin: () => p.manyToOne(Administration).filters({ [ADMIN_SCOPE]: false }),
    currentAdmin: () => p.manyToOne(Administration),
    chargeAuthBlocked: p.boolean().default(false),
    fulfilment: p.enum(FULFILMENT_STATES).default('none'),
    activatedAt: p.datetime().nullable(),
    vehicleVin: p.string().nullable(),
    /** Set when the token is first linked to a subscription (the `used` filter). */
    firstLinkedAt: p.datetime().nullable(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    /**
     * The token's own last change, and also the last change of what decides its OCPI `valid`: the
     * blocked customer it is linked to (triggers of the token_published_changes migration).
     */
    updatedAt: updatedAtProperty(),
  },
});

export class Token extends TokenSchema.class {
  blockChargeAuthRequests(): void {
    this.chargeAuthBlocked = true;
  }

  unblockChargeAuthRequests(): void {
    this.chargeAuthBlocked = false;
  }

  activate(at: Date): void {
    if (this.activatedAt) throw new DomainError('already_activated', 'the token is already activated', { path: ['evco_id'] });
    this.activatedAt = at;
    this.fulfilment = 'activated';
  }
}
TokenSchema.setClass(Token);
recordsEvents<Token>(Token, 'msp_token', { idOf: (t) => t.evcoId, adminOf: (t) => t.currentAdmin?.id ?? null });
