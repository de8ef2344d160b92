import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

export const CREDIT_KINDS = ['grant', 'correction', 'consumption'] as const;

/** One movement of a subscription's monetary credit (excl. VAT); the ledger is append-only. */
export const MonetaryCreditSchema = defineEntity({
  name: 'MonetaryCredit',
  tableName: 'msp_monetary_credit',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    subscription: () => p.manyToOne(TokenSubscription).index(),
    kind: p.enum(CREDIT_KINDS),
    amount: p.decimal('string').precision(20).scale(6),
    balanceAfter: p.decimal('string').precision(20).scale(6),
    description: p.string().nullable(),
    /** For consumptions: the charge session that used the credit (pricing engine). */
    sessionId: p.uuid().nullable().index(),
    createdAt: createdAtProperty(),
  },
});

export class MonetaryCredit extends MonetaryCreditSchema.class {}
MonetaryCreditSchema.setClass(MonetaryCredit);
