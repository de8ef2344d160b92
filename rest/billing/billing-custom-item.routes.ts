import * as yup from 'yup';
import { billCustomItem, type CustomItemInput } from '../../src/billing/sources/custom-item.source.ts';
import { countryCode, text } from '../../src/platform/input-schemas.ts';
import { defineRoute, type RouteDef, type RouteInput } from '../rails/route.ts';
import { representation, t } from '../rails/shape.ts';

const TAG = 'Billing';

const customItemBody = yup.object({
  time_zone: text(64).defined('${path} is required'),
  date: text(10).defined('${path} is required'),
  party_id: text(64).nullable(),
  party_external_reference: text().nullable(),
  admin_id: text(64).defined('${path} is required'),
  description: text(1000).defined('${path} is required'),
  quantity: text(32).defined('${path} is required'),
  unit: text(32).defined('${path} is required'),
  unit_price_excl_vat: text(32).defined('${path} is required'),
  vat_kind: text(32).defined('${path} is required'),
  vat_country: countryCode().nullable(),
  product_category: text(64).nullable(),
  box_category_description: text().nullable(),
  series_indicator_code: text(20).nullable(),
  context: text().nullable(),
  box_distinct_code: text(64).nullable(),
  reference: text().nullable(),
});

type Body = yup.InferType<typeof customItemBody>;

const resultShape = representation('BillingCustomItemResult', {
  item_id: t.string(),
  box_id: t.string(),
  external_reference: t.nullable(t.string()),
  amount_excl_vat: t.decimal(),
  vat_percentage: t.decimal(),
  vat_country: t.string(),
  duplicate: t.boolean(),
});

const input = (b: Body): CustomItemInput => ({
  timeZone: b.time_zone, date: b.date, partyId: b.party_id, partyExternalReference: b.party_external_reference, adminId: b.admin_id,
  description: b.description, quantity: b.quantity, unit: b.unit, unitPriceExclVat: b.unit_price_excl_vat, vatKind: b.vat_kind,
  vatCountry: b.vat_country, productCategory: b.product_category, boxCategoryDescription: b.box_category_description,
  seriesIndicatorCode: b.series_indicator_code, context: b.context, boxDistinctCode: b.box_distinct_code, reference: b.reference,
});

const handle = (externalReference: (i: RouteInput<Body, unknown>) => string | null) => async (i: RouteInput<Body, unknown>) => {
  const r = await billCustomItem(i.em, input(i.body), externalReference(i));
  return {
    item_id: r.itemId, box_id: r.boxId, external_reference: r.externalReference, amount_excl_vat: r.amountExclVat,
    vat_percentage: r.vatPercentage, vat_country: r.vatCountry, duplicate: r.duplicate,
  };
};

const DESCRIPTION = 'Experimental. Bills quantity × unit_price_excl_vat (rounded once) on the date (local to time_zone) for the party '
  + '(party_id or party_external_reference), in the box of that period, or the next open one when that box is closed. '
  + 'series_indicator_code picks the series by code; box_distinct_code asks for a box of its own.';

export const billingCustomItemRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/billing-custom-item', tag: TAG, graphql: 'billCustomItem', body: customItemBody, response: resultShape,
    summary: 'Bill a custom item', description: DESCRIPTION, handler: handle(() => null),
  }),
  defineRoute({
    method: 'post', path: '/billing-custom-item/:external_reference', tag: TAG, graphql: 'billCustomItem', body: customItemBody, response: resultShape,
    summary: 'Bill a custom item idempotently by its external reference',
    description: `${DESCRIPTION} The same reference with the same content answers the item billed before (duplicate: true); `
      + 'with other content 400 conflicting_resubmission naming the first difference.',
    handler: handle((i) => i.params.external_reference),
  }),
];
