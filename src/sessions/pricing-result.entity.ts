import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import type { SessionSubtotal } from './session-subtotals.ts';
import { ChargeSession } from './charge-session.entity.ts';

/** One pricing of a session. Repricing adds a result with the next version; results are never changed. */
export const PricingResultSchema = defineEntity({
  name: 'PricingResult',
  tableName: 'msp_pricing_result',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['session', 'version'] }],
  /** A limited credential's pages (by id) of its administration's results (migration pricing_result_scope). */
  indexes: [{ properties: ['admin', 'id'] }],
  properties: {
    id: idProperty(),
    session: () => p.manyToOne(ChargeSession).filters({ [ADMIN_SCOPE]: false }),
    version: p.integer(),
    admin: () => p.manyToOne(Administration),
    customerId: p.uuid(),
    subscriptionId: p.uuid(),
    subscriptionExternalReference: p.string().nullable(),
    tokenEvcoId: p.string(),
    currency: p.string().length(3),
    ratePlanId: p.uuid(),
    ratePlanVersionId: p.uuid(),
    rule: p.json<{ name: string | null; index: number | null }>(),
    subtotals: p.json<SessionSubtotal[]>(),
    totalExclVat: p.decimal('string').precision(20).scale(2),
    totalVat: p.decimal('string').precision(20).scale(2),
    totalInclVat: p.decimal('string').precision(20).scale(2),
    creditUsed: p.decimal('string').precision(20).scale(6).default('0'),
    /** Set by the script of the rule that decided. */
    annotations: p.json<Record<string, string>>().onCreate(() => ({})),
    /** The roaming agreement that applied when this version was priced (a snapshot: id, external_reference, connection_id, partner_id, role); null when none. */
    roamingAgreement: p.json<Record<string, unknown>>().nullable(),
    explanation: p.json<string[]>(),
    createdAt: createdAtProperty(),
  },
});

export class PricingResult extends PricingResultSchema.class {}
PricingResultSchema.setClass(PricingResult);
