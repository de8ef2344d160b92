import type { ItemData } from '../../src/billing/billing-item.queries.ts';
import { MSP_SESSION_SOURCE } from '../../src/billing/sources/msp-session.source.ts';
import { normalize } from '../../src/money/decimal.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { ChargeSession } from './charge-session.ts';
import { DateTime } from './date-time.ts';

const BillingSubItem = builder.objectRef<ItemData['subItems'][number]>('BillingSubItem').implement({
  description: "A cost component of an item (a session's energy, time, flat fee ...).",
  fields: (t) => ({
    kind: t.exposeString('kind'),
    label: t.exposeString('label'),
    volume: t.string({ description: 'An exact decimal string.', resolve: (s) => normalize(s.volume) }),
    unit: t.exposeString('unit'),
    amountExclVat: t.string({ description: 'An exact decimal string.', resolve: (s) => normalize(s.amount_excl_vat) }),
  }),
});

export const BillingItem = builder.objectRef<ItemData>('BillingItem').implement({
  description: 'One billable thing in a box (REST: the per-box lists such as /billing-box/{id}/msp-charge-session).',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    sourceKind: t.exposeString('sourceKind', { description: 'msp_session, msp_subscription_fee, custom, ...' }),
    subjectId: t.exposeString('subjectId', { description: 'What the item bills: a session id, `<subscription>/<period>/<cost>`, a custom item key.' }),
    sourceVersion: t.exposeInt('sourceVersion', { description: "The version billed (a session's pricing result version)." }),
    entry: t.exposeString('entry', { description: 'original, or reversal (negates an item of a box closed earlier).' }),
    reversesItemId: t.string({ nullable: true, resolve: (i) => i.reversesItemId }),
    occurredAt: t.field({ type: DateTime, resolve: (i) => new Date(i.occurredAt) }),
    description: t.exposeString('description'),
    quantity: t.string({ resolve: (i) => normalize(i.quantity) }),
    unit: t.exposeString('unit'),
    amountExclVat: t.string({ resolve: (i) => normalize(i.amountExclVat) }),
    vatKind: t.exposeString('vatKind'),
    vatPercentage: t.string({ resolve: (i) => normalize(i.vatPercent) }),
    subItems: t.field({ type: [BillingSubItem], extensions: EMBEDDED_VALUE, description: 'Its cost components.', resolve: (i) => i.subItems }),
    chargeSession: t.field({
      type: ChargeSession, nullable: true, description: 'The MSP charge session this item bills (with its pricing results).',
      resolve: (i) => (i.sourceKind === MSP_SESSION_SOURCE ? i.subjectId : null),
    }),
  }),
});
