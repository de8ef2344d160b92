import type { RollupData } from '../../src/billing/billing-box.queries.ts';
import { itemsOfRollups } from '../../src/billing/billing-item.queries.ts';
import { InvalidInputError } from '../../src/platform/errors.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { MAX_PAGE_SIZE } from '../connection.ts';
import { BillingItem } from './billing-item.ts';

const BillingVolume = builder.objectRef<{ unit: string; volume: string }>('BillingVolume').implement({
  description: 'A volume billed in one unit.',
  fields: (t) => ({ unit: t.exposeString('unit', { description: "kWh, min, session, a custom item's unit ..." }), volume: t.exposeString('volume', { description: 'An exact decimal string.' }) }),
});

export const BillingRollup = builder.objectRef<RollupData>('BillingRollup').implement({
  description: "A line of a box's document: items of one product category, VAT kind and rate (and group value).",
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    productCategory: t.exposeString('productCategory'),
    vatKind: t.exposeString('vatKind'),
    vatPercentage: t.exposeString('vatPercent'),
    groupValue: t.string({ nullable: true, resolve: (r) => r.groupValue }),
    context: t.string({ nullable: true, resolve: (r) => r.context }),
    itemCount: t.exposeInt('itemCount'),
    subtotalExclVat: t.exposeString('net'),
    vatAmount: t.exposeString('vatAmount'),
    subtotalInclVat: t.exposeString('inclVat'),
    volume: t.field({
      type: [BillingVolume], extensions: EMBEDDED_VALUE, description: 'Volume billed per unit (REST: the volume map, keyed by unit).',
      resolve: (r) => Object.entries(r.volume).map(([unit, volume]) => ({ unit, volume })),
    }),
    averageAmountPerKwhExclTax: t.string({ nullable: true, resolve: (r) => r.averageAmountPerKwhExclVat }),
  }),
});

builder.objectField(BillingRollup, 'items', (t) => t.loadableList({
  type: BillingItem,
  byPath: true,
  description: 'Its items, by id (the first `first`, at most 100); the items of all roll-ups of a query load in one batch.',
  args: { first: t.arg.int({ defaultValue: 50 }) },
  load: (rollupIds: string[], context, args) => {
    const first = args.first ?? 50;
    if (first < 1 || first > MAX_PAGE_SIZE) throw new InvalidInputError(`first must be 1 to ${MAX_PAGE_SIZE}`, { path: ['first'] });
    return itemsOfRollups(context.em, rollupIds, first);
  },
  resolve: (rollup) => rollup.id,
}));
