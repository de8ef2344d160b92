import { normalize } from '../../src/money/decimal.ts';
import type { Data } from '../../src/platform/plain-data.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { pricingResultsByIds } from '../../src/sessions/charge-session.queries.ts';
import type { PricingResult as PricingResultEntity } from '../../src/sessions/pricing-result.entity.ts';
import type { SessionSubtotal as SessionSubtotalData } from '../../src/sessions/session-subtotals.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { DateTime } from './date-time.ts';
import { Annotation, annotationList, CostCalculationRule, subtotalFields } from './cost-calculation.ts';
import { RatePlanVersion } from './rate-plan-version.ts';

/** What the node reads: a pricing result's own members (PricingResultData of the queries, or a child connection's row). */
type PricingResultNode = Data<PricingResultEntity>;

const SessionSubtotal = builder.objectRef<SessionSubtotalData>('SessionSubtotal').implement({
  description: 'One line of a priced session (REST: subtotals of /msp-charge-session-priced); monetary_credit lines are what credit paid.',
  fields: (t) => ({
    ...subtotalFields(t),
    rateLabel: t.string({ description: 'What the line is called on documents.', resolve: (line) => line.rate_label }),
    rateRepresentAsPercentage: t.boolean({ resolve: (line) => line.rate_represent_as_percentage }),
  }),
});

const PricingRoamingAgreement = builder.objectRef<Record<string, unknown>>('PricingRoamingAgreement').implement({
  description: 'The roaming agreement that applied when a version was priced (REST: roaming_agreement).',
  fields: (t) => ({
    databaseId: t.string({ description: 'The REST id of the agreement.', resolve: (a) => String(a.id) }),
    externalReference: t.string({ nullable: true, resolve: (a) => (a.external_reference as string | null | undefined) ?? null }),
    connectionId: t.string({ resolve: (a) => String(a.connection_id) }),
    partnerId: t.string({ resolve: (a) => String(a.partner_id) }),
    role: t.string({ description: 'Our role in the agreement.', resolve: (a) => String(a.role) }),
  }),
});

export const PricingResult = builder.loadableNode('PricingResult', {
  description: 'One pricing of a charge session (REST: /msp-charge-session-priced); repricing adds the next version.',
  id: { resolve: (r: PricingResultNode) => r.id },
  cacheResolved: (r) => r.id,
  isTypeOf: (value) => isDataOf(value, 'PricingResult'),
  load: (ids: string[], context) => pricingResultsByIds(context.em, ids) as Promise<PricingResultNode[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this result in the REST API.' }),
    version: t.exposeInt('version'),
    currency: t.exposeString('currency'),
    ratePlanVersion: t.field({ type: RatePlanVersion, nullable: true, resolve: (r) => r.ratePlanVersionId }),
    rule: t.field({
      type: CostCalculationRule, nullable: true, extensions: EMBEDDED_VALUE, description: 'The rule that decided; null when none matched and the base rates applied.',
      resolve: (r) => (r.rule.name === null || r.rule.index === null ? null : { name: r.rule.name, index: r.rule.index }),
    }),
    subtotals: t.field({ type: [SessionSubtotal], extensions: EMBEDDED_VALUE, description: 'The lines (amounts as exact decimal strings).', resolve: (r) => r.subtotals }),
    annotations: t.field({
      type: [Annotation], extensions: EMBEDDED_VALUE, description: 'What the rule script set; roaming_amount_difference when reported and calculated roaming amounts differ.',
      resolve: (r) => annotationList(r.annotations),
    }),
    roamingAgreement: t.field({
      type: PricingRoamingAgreement, nullable: true, extensions: EMBEDDED_VALUE, description: 'The roaming agreement of this version.', resolve: (r) => r.roamingAgreement ?? null,
    }),
    totalExclVat: t.string({ resolve: (r) => normalize(r.totalExclVat) }),
    totalVat: t.string({ resolve: (r) => normalize(r.totalVat) }),
    totalInclVat: t.string({ resolve: (r) => normalize(r.totalInclVat) }),
    monetaryCreditUsed: t.string({ resolve: (r) => normalize(r.creditUsed) }),
    explanation: t.stringList({ resolve: (r) => r.explanation }),
    createdAt: t.field({ type: DateTime, resolve: (r) => r.createdAt }),
  }),
});

export const PricingResultConnection = builder.connectionObject({ type: PricingResult, name: 'PricingResultConnection' }, { name: 'PricingResultEdge' });
