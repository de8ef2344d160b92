import { normalize } from '../../src/money/decimal.ts';
import type { Data } from '../../src/platform/plain-data.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { pricingResultsByIds } from '../../src/sessions/charge-session.queries.ts';
import type { PricingResult as PricingResultEntity } from '../../src/sessions/pricing-result.entity.ts';
import { builder } from '../builder.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';
import { RatePlanVersion } from './rate-plan-version.ts';

/** What the node reads: a pricing result's own members (PricingResultData of the queries, or a child connection's row). */
type PricingResultNode = Data<PricingResultEntity>;

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
    rule: t.field({ type: JsonScalar, description: 'The rule that decided: {name, index}; nulls when none matched.', resolve: (r) => r.rule }),
    subtotals: t.field({ type: JsonScalar, description: 'The lines, as in REST (amounts as decimal strings).', resolve: (r) => r.subtotals }),
    annotations: t.field({ type: JsonScalar, description: 'What the rule script set; roaming_amount_difference when reported and calculated roaming amounts differ.', resolve: (r) => r.annotations ?? {} }),
    roamingAgreement: t.field({
      type: JsonScalar, nullable: true, description: 'The roaming agreement of this version: id, external_reference, connection_id, partner_id, role.',
      resolve: (r) => r.roamingAgreement ?? null,
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
