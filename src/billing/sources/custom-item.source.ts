// Item source: custom items (POST /billing-custom-item[/{external_reference}]). An item is billed
// at once, in the transaction of the request; with an external reference the same content is
// idempotent and other content is 400 conflicting_resubmission (decisions.md).
import { refuseBlank } from '../../platform/blank-text.ts';
import { DATE_FORMAT, MAX_YEAR, parseDate } from '../../platform/timestamp.ts';
import { compareDecimal, isNegative, mulDivToCurrency, parseDecimal, percentOfDecimal } from '../../money/decimal.ts';
import { resolvePartyCustomer, type PartyRefInput } from '../../parties/party-ref.ts';
import { Administration } from '../../parties/administration.entity.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../../platform/errors.ts';
import type { Em } from '../../platform/orm.ts';
import { isTimeZone } from '../../pricing/local-time.ts';
import { vatRateAt } from '../../pricing/vat-rate.service.ts';
import { VAT_KINDS, type VatKind } from '../../pricing/vat-rate.entity.ts';
import { BillingItem } from '../billing-item.entity.ts';
import { BillingSeries } from '../billing-series.entity.ts';
import { collectItems } from '../collect-items.ts';
import { candidateRows } from '../item-source.ts';
import { localMidnight, periodEndsByLastYear } from '../periods.ts';
import { billingAdmin } from '../billing-admin.ts';
import { isBuiltInCategory, ProductCategory } from '../product-category.entity.ts';
import { uuidv7 } from '../../platform/ids.ts';

export const CUSTOM_ITEM_SOURCE = 'custom';

export interface CustomItemInput extends PartyRefInput {
  timeZone: string;
  date: string;
  adminId: string;
  description: string;
  quantity: string;
  unit: string;
  unitPriceExclVat: string;
  vatKind: string;
  vatCountry?: string | null;
  productCategory?: string | null;
  boxCategoryDescription?: string | null;
  seriesIndicatorCode?: string | null;
  context?: string | null;
  boxDistinctCode?: string | null;
  reference?: string | null;
}

export interface CustomItemResult {
  itemId: string;
  boxId: string;
  externalReference: string | null;
  amountExclVat: string;
  vatPercentage: string;
  vatCountry: string;
  duplicate: boolean;
}


/** The request as compared on resubmission: parsed values, decimals by value. */
type Content = Record<string, string | null>;

const sameContent = (a: Content, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

function firstDifference(a: Content, b: Record<string, unknown>): string {
  return Object.keys(a).find((key) => b[key] !== a[key]) ?? 'external_reference';
}

/** What an item keeps: its amount 18 integer digits, its VAT before rounding 14 (larger ones were a 500, a numeric overflow). */
const AMOUNT_BOUND = '1000000000000000000';
const VAT_BOUND = '100000000000000';
const magnitude = (value: string) => (isNegative(value) ? value.slice(1) : value);

async function checkInput(em: Em, input: CustomItemInput) {
  if (!isTimeZone(input.timeZone)) throw new InvalidInputError('time_zone must be an IANA time zone such as Europe/Amsterdam', { path: ['time_zone'] });
  if (!parseDate(input.date)) throw new InvalidInputError(`date must be ${DATE_FORMAT}`, { path: ['date'] });
  // They name the document line and its quantity: blank, the line has no name.
  refuseBlank(input.description, ['description']);
  refuseBlank(input.unit, ['unit']);
  const quantity = parseDecimal(input.quantity, ['quantity']);
  const unitPrice = parseDecimal(input.unitPriceExclVat, ['unit_price_excl_vat']);
  if (isNegative(unitPrice)) throw new InvalidInputError('unit_price_excl_vat cannot be negative: a negative quantity credits', { path: ['unit_price_excl_vat'] });
  if (!(VAT_KINDS as readonly string[]).includes(input.vatKind)) {
    throw new InvalidInputError(`vat_kind must be one of ${VAT_KINDS.join(', ')}`, { path: ['vat_kind'] });
  }
  const admin = await em.findOne(Administration, { id: input.adminId });
  if (!admin) throw new NotFoundError('administration', { path: ['admin_id'] });
  // A customer of another administration is not billed by this one (its end users would see the box).
  const party = await resolvePartyCustomer(em, input, [], admin.id);
  const category = input.productCategory ?? 'custom';
  if (!isBuiltInCategory(category) && !(await em.findOne(ProductCategory, { admin, code: category }))) {
    throw new NotFoundError('product category', { path: ['product_category'] });
  }
  if (input.seriesIndicatorCode && !(await em.findOne(BillingSeries, { admin, code: input.seriesIndicatorCode }))) {
    throw new NotFoundError('billing series', { path: ['series_indicator_code'] });
  }
  const vatCountry = (input.vatCountry ?? admin.country).toUpperCase();
  const occurredAt = localMidnight(input.date, input.timeZone);
  const billing = await billingAdmin(em, admin.id);
  if (!periodEndsByLastYear(occurredAt, billing.timeZone, billing.kind)) {
    throw new InvalidInputError(`date must lie in a billing period that ends by ${MAX_YEAR}-12-31 (the administration's time zone ${billing.timeZone})`, { path: ['date'] });
  }
  const vat = await vatRateAt(em, vatCountry, input.vatKind as VatKind, occurredAt);
  const amount = mulDivToCurrency(quantity, unitPrice);
  if (compareDecimal(magnitude(amount), AMOUNT_BOUND) >= 0 || compareDecimal(magnitude(percentOfDecimal(amount, vat.percentage)), VAT_BOUND) >= 0) {
    throw new InvalidInputError(`quantity × unit_price_excl_vat must be below ${AMOUNT_BOUND} and its VAT below ${VAT_BOUND}`, { path: ['quantity'] });
  }
  const content: Content = {
    time_zone: input.timeZone, date: input.date, party_id: party.id, admin_id: admin.id.toLowerCase(), description: input.description,
    quantity, unit: input.unit, unit_price_excl_vat: unitPrice, vat_kind: input.vatKind, vat_country: vatCountry,
    product_category: category, box_category_description: input.boxCategoryDescription ?? null,
    series_indicator_code: input.seriesIndicatorCode ?? null, context: input.context ?? null,
    box_distinct_code: input.boxDistinctCode ?? null, reference: input.reference ?? null,
  };
  return { admin, party, quantity, unitPrice, vat, vatCountry, occurredAt, category, content };
}

export async function billCustomItem(em: Em, input: CustomItemInput, externalReference: string | null): Promise<CustomItemResult> {
  return em.transactional(async (tx) => {
    const checked = await checkInput(tx, input);
    if (externalReference !== null) {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`billing-custom-item:${checked.admin.id.toLowerCase()}:${externalReference.toLowerCase()}`]);
      const existing = await tx.findOne(BillingItem, { admin: checked.admin, externalReference, entry: 'original' });
      if (existing) {
        if (!sameContent(checked.content, existing.input ?? {})) {
          const member = firstDifference(checked.content, existing.input ?? {});
          throw new DomainError('conflicting_resubmission', `a custom item with external reference ${externalReference} was billed with other content`,
            { path: [member] });
        }
        return {
          itemId: existing.id, boxId: existing.box.id, externalReference, amountExclVat: existing.amountExclVat,
          vatPercentage: checked.vat.percentage, vatCountry: existing.vatCountry, duplicate: true,
        };
      }
    }
    const amount = mulDivToCurrency(checked.quantity, checked.unitPrice);
    const subject = externalReference !== null ? `ext:${checked.admin.id.toLowerCase()}:${externalReference.toLowerCase()}` : uuidv7();
    const result = await collectItems(tx, CUSTOM_ITEM_SOURCE, candidateRows([{
      admin_id: checked.admin.id, party_id: checked.party.id, subject_id: subject, line_key: '', source_version: 1,
      occurred_at: checked.occurredAt.toISOString(), product_category: checked.category, vat_kind: input.vatKind,
      vat_percent: checked.vat.percentage, vat_country: checked.vatCountry, currency: checked.admin.currency, description: input.description,
      quantity: checked.quantity, unit: input.unit, unit_price: checked.unitPrice, amount_excl_vat: amount,
      vat_amount_unrounded: percentOfDecimal(amount, checked.vat.percentage), group_subscription: null, group_token: null,
      sub_items: [{ kind: 'custom', label: input.description, volume: checked.quantity, unit: input.unit, amount_excl_vat: amount }],
      context: input.context ?? null, reference: input.reference ?? null, box_category_description: input.boxCategoryDescription ?? null,
      distinct_code: input.boxDistinctCode ?? null, series_code: input.seriesIndicatorCode ?? null, external_reference: externalReference,
      input: checked.content,
    }]));
    const [placed] = result.items;
    if (!placed) throw new DomainError('billing_not_configured', `administration ${checked.admin.id} has no billing series for custom items`, { path: ['admin_id'] });
    return {
      itemId: placed.item_id, boxId: placed.box_id, externalReference, amountExclVat: amount, vatPercentage: checked.vat.percentage,
      vatCountry: checked.vatCountry, duplicate: false,
    };
  });
}
