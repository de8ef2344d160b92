// The box reads both transports call (REST /billing-box, GraphQL billingBoxes and the review
// screen): plain data, the caller's administrations only (the ORM filter picks the box ids; the
// details of a page come in one statement whatever the page size).
import type { FilterQuery } from '@mikro-orm/core';
import { addCurrency, isZero, mulDivDecimal, mulDivToCurrency, normalize, roundToCurrency } from '../money/decimal.ts';
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { scopedRead } from '../access/admin-scope.ts';
import { isUuid } from '../platform/ids.ts';
import { markData } from '../platform/plain-reads.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Customer } from '../parties/customer.entity.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { BillingBox } from './billing-box.entity.ts';
import { negatesDocumentAmounts } from './billing-series.entity.ts';
import { boxTotals, vatOf, type BoxTotals } from './box-totals.ts';
import { inScope, type EndUserScope } from '../end-users/end-user-scope.ts';
import { findOffsetPage, type OffsetRange, type OffsetResult } from '../platform/offset-page.ts';

export interface RollupData {
  id: string;
  boxId: string;
  productCategory: string;
  vatKind: string;
  vatPercent: string;
  groupValue: string | null;
  context: string | null;
  itemCount: number;
  net: string;
  vatAmount: string;
  inclVat: string;
  volume: Record<string, string>;
  averageAmountPerKwhExclVat: string | null;
}

export interface DocumentInfo {
  filename: string;
  contentType: string;
  size: number;
  primary: boolean;
  draft: boolean;
}

export interface BoxData {
  id: string;
  adminId: string;
  seriesId: string;
  seriesCode: string;
  seriesExternalReference: string | null;
  primaryDocumentType: string;
  documentSource: string;
  reviewSetId: string;
  reviewSetCode: string;
  reviewSetSequence: number;
  partyKind: string;
  partyId: string;
  partyExternalReference: string | null;
  partyName: string | null;
  periodFrom: Date;
  periodUntil: Date;
  vatCountry: string;
  currency: string;
  distinctCode: string;
  state: string;
  deferred: boolean;
  transferred: boolean;
  localeId: string | null;
  rollupGroupBy: string;
  negateDocumentAmounts: boolean;
  billingReference: string | null;
  paymentMethod: string | null;
  paymentPeriodDays: number | null;
  invoiceCode: string | null;
  invoiceDate: string | null;
  documentKind: string | null;
  createdAt: Date;
  updatedAt: Date;
  rollups: RollupData[];
  totals: BoxTotals;
  /** The VAT total in the administration's VAT accounting currency (BT-6, BT-111); null without one. */
  foreignCurrencyTotals: { currency: string; rate: string; totalVat: string } | null;
  documents: DocumentInfo[];
}

// One statement for a page's boxes (set-based over the page, as four statements were before):
// each box's row with its series, review-set, party and the VAT accounting currency's rate, its
// roll-ups (their items counted and summed, the volume of each unit of the items' sub-items) and
// its documents, the last two as JSON built by PostgreSQL. Amounts and volumes stay text (exact);
// the money rules (VAT per category, totals) are box-totals.ts's, applied below. Each roll-up's
// items are read through their roll-up's index (a lateral per roll-up): joined as a set, PostgreSQL
// scanned every item of the table, twice, once it held 100,000 (the reads benchmark's box page at
// 23 requests/s in its growth run, 40 now).
const BOXES = `with rollup_row as (select r.id, r.box_id, r.product_category, r.vat_kind, r.vat_percent, r.group_value, r.context,
      x.item_count, x.net, x.volume
    from billing_rollup r
    cross join lateral (select count(i.id)::int as item_count, sum(i.amount_excl_vat)::text as net,
        (select json_object_agg(v.unit, v.volume order by v.unit)
          from (select e->>'unit' as unit, sum((e->>'volume')::numeric)::text as volume
            from billing_item vi cross join jsonb_array_elements(vi.sub_items) e
            where vi.rollup_id = r.id and vi.box_id = any($1::uuid[]) and e->>'unit' is not null and e->>'volume' is not null
            group by 1) v) as volume
      from billing_item i where i.rollup_id = r.id) x
    -- A roll-up whose items all moved or were withdrawn stays, and is not shown.
    where r.box_id = any($1::uuid[]) and x.item_count > 0),
  rollups as (select r.box_id, json_agg(json_build_object('id', r.id, 'product_category', r.product_category, 'vat_kind', r.vat_kind,
        'vat_percent', trim_scale(r.vat_percent)::text, 'group_value', r.group_value, 'context', r.context, 'item_count', r.item_count,
        'net', r.net, 'volume', r.volume)
      order by r.product_category, r.vat_kind, r.vat_percent, r.group_value nulls first, r.id) as rollups
    from rollup_row r
    group by r.box_id),
  documents as (select f.box_id, json_agg(json_build_object('filename', f.filename, 'content_type', f.content_type, 'size', f.size,
        'primary', f."primary", 'draft', f.draft) order by f."primary" desc, f.filename) as documents
    from billing_document_file f where f.box_id = any($1::uuid[])
    group by f.box_id)
  select b.*, s.code as series_code, s.external_reference as series_external_reference,
    s.primary_document_type, s.document_source, rs.code as review_set_code,
    coalesce(c.external_reference, rp.external_reference) as party_external_reference, coalesce(c.name, rp.name) as party_name,
    case when b.state = 'finalized' and not $2 then b.vat_accounting_currency else bs.vat_accounting_currency end as fx_currency,
    case when b.state = 'finalized' and not $2 then b.vat_exchange_rate::text else fx.rate::text end as fx_rate, ru.rollups, d.documents
  from billing_box b join billing_series s on s.id = b.series_id join billing_review_set rs on rs.id = b.review_set_id
  join administration a on a.id = b.admin_id
  left join customer c on b.party_kind = 'customer' and c.id = b.party_id
  left join roaming_partner rp on b.party_kind = 'roaming_partner' and rp.id = b.party_id
  left join billing_settings bs on bs.admin_id = b.admin_id
  -- The VAT accounting currency's rate of the invoice date (today's local date until finalized); a finalized box
  -- keeps the one it was issued with ($2: the rate of its invoice date, which finalize keeps).
  left join lateral (select x.rate from billing_exchange_rate x where x.admin_id = b.admin_id and x.currency = bs.vat_accounting_currency
    and x.date <= coalesce(b.invoice_date, to_char(now() at time zone a.time_zone, 'YYYY-MM-DD')) order by x.date desc limit 1) fx on true
  left join rollups ru on ru.box_id = b.id
  left join documents d on d.box_id = b.id
  where b.id = any($1::uuid[])`;

type Row = Record<string, any>;

interface RollupRow {
  id: string; product_category: string; vat_kind: string; vat_percent: string; group_value: string | null; context: string | null;
  item_count: number; net: string; volume: Record<string, string> | null;
}

function rollupOf(row: RollupRow, boxId: string): RollupData {
  const net = roundToCurrency(row.net);
  const vatPercent = normalize(row.vat_percent);
  const vatAmount = vatOf(net, vatPercent);
  const volume: Record<string, string> = {};
  for (const unit in row.volume) volume[unit] = normalize(row.volume[unit]);
  const kwh = volume.kWh;
  return {
    id: row.id, boxId, productCategory: row.product_category, vatKind: row.vat_kind, vatPercent,
    groupValue: row.group_value, context: row.context, itemCount: row.item_count, net, vatAmount,
    inclVat: addCurrency(net, vatAmount),
    volume,
    averageAmountPerKwhExclVat: kwh && !isZero(kwh) ? mulDivDecimal(net, '1', kwh) : null,
  };
}

/**
 * Boxes by id with roll-ups, totals and documents, in the order of `ids`: one statement.
 * `currentRate`: a finalized box's foreign currency totals with the rate of its invoice date, not the one it keeps (finalize).
 */
export async function boxDetails(em: Em, ids: string[], options: { currentRate?: boolean } = {}): Promise<BoxData[]> {
  if (!ids.length) return [];
  const boxes = await boundQuery<Row>(em, BOXES, [ids, options.currentRate === true]);
  const byId = new Map(boxes.map((b) => [b.id, b]));
  // A uuid in any casing names its box (the database answers it in lower case): an id in upper case was dropped.
  return ids.map((id) => id.toLowerCase()).filter((id) => byId.has(id)).map((id) => {
    const b = byId.get(id)!;
    const boxRollups = ((b.rollups ?? []) as RollupRow[]).map((r) => rollupOf(r, id));
    const totals = boxTotals(boxRollups.map((r) => ({ vatKind: r.vatKind, vatPercent: r.vatPercent, net: r.net })));
    const foreign = b.fx_currency && b.fx_currency !== b.currency && b.fx_rate
      ? { currency: b.fx_currency, rate: normalize(b.fx_rate), totalVat: mulDivToCurrency(totals.totalVat, b.fx_rate) } : null;
    return markData<BoxData>({
      id, adminId: b.admin_id, seriesId: b.series_id, seriesCode: b.series_code, seriesExternalReference: b.series_external_reference,
      primaryDocumentType: b.primary_document_type, documentSource: b.document_source,
      reviewSetId: b.review_set_id, reviewSetCode: b.review_set_code, reviewSetSequence: b.review_set_sequence,
      partyKind: b.party_kind, partyId: b.party_id, partyExternalReference: b.party_external_reference, partyName: b.party_name,
      periodFrom: new Date(b.period_from), periodUntil: new Date(b.period_until), vatCountry: b.vat_country, currency: b.currency,
      distinctCode: b.distinct_code, state: b.state, deferred: b.deferred, transferred: b.transferred, localeId: b.locale_id,
      rollupGroupBy: b.rollup_group_by,
      // Fixed at finalize; until then as the series' document type says now.
      negateDocumentAmounts: b.state === 'finalized' ? b.negate_document_amounts : negatesDocumentAmounts(b.primary_document_type), billingReference: b.billing_reference,
      paymentMethod: b.payment_method, paymentPeriodDays: b.payment_period_days, invoiceCode: b.invoice_code,
      invoiceDate: b.invoice_date, documentKind: b.document_kind, createdAt: new Date(b.created_at), updatedAt: new Date(b.updated_at),
      rollups: boxRollups,
      totals,
      foreignCurrencyTotals: foreign,
      documents: ((b.documents ?? []) as Row[]).map((d) => ({
        filename: d.filename, contentType: d.content_type, size: d.size, primary: d.primary, draft: d.draft,
      })),
    }, 'BillingBox');
  });
}

export interface BoxFilter {
  adminId?: string;
  partyIds?: string[];
  /** Boxes whose period starts at or after this moment. */
  periodFrom?: Date;
  /** Boxes whose period ends at or before this moment. */
  periodUntil?: Date;
  seriesExternalReference?: string;
  reviewSetId?: string;
  state?: string;
}

/** Boxes by id, filtered (several filters combine with AND). */
export function boxList(em: Em, filter: BoxFilter = {}): SeekList<BoxData> {
  const where: FilterQuery<BillingBox> = {
    ...(filter.adminId !== undefined ? { admin: filter.adminId } : {}),
    ...(filter.partyIds ? { partyId: { $in: filter.partyIds } } : {}),
    ...(filter.periodFrom ? { periodFrom: { $gte: filter.periodFrom } } : {}),
    ...(filter.periodUntil ? { periodUntil: { $lte: filter.periodUntil } } : {}),
    ...(filter.seriesExternalReference !== undefined ? { series: { externalReference: filter.seriesExternalReference } } : {}),
    ...(filter.reviewSetId !== undefined ? { reviewSet: filter.reviewSetId } : {}),
    ...(filter.state !== undefined ? { state: filter.state as BillingBox['state'] } : {}),
  };
  return new SeekList<BoxData>(em, {
    // Only the ids (as the database answers them): boxDetails reads each box with its roll-ups in a set.
    entity: BillingBox, ...scopedRead(em, where as Record<string, unknown>, 'admin'), fields: ['id'], rawRows: true,
    enrich: (rows) => boxDetails(em, rows.map((row) => String(row.id))),
  });
}

/** The list of the REST filters: a party named by its external reference (customers the caller sees, roaming partners). */
export async function boxListOf(em: Em, filter: Omit<BoxFilter, 'partyIds'> & { partyExternalReference?: string }): Promise<SeekList<BoxData>> {
  const { partyExternalReference, ...rest } = filter;
  const partyIds = partyExternalReference === undefined ? undefined
    : [...(await em.find(Customer, { externalReference: partyExternalReference }, { fields: ['id'] })).map((c) => c.id),
      ...(await em.find(RoamingPartner, { externalReference: partyExternalReference }, { fields: ['id'] })).map((p) => p.id)];
  return boxList(em, { ...rest, partyIds });
}

/** One box the caller may see, or 400 not_found. */
export async function getBox(em: Em, id: string): Promise<BoxData> {
  const visible = isUuid(id) ? await em.findOne(BillingBox, { id }, { fields: ['id'] }) : null;
  if (!visible) throw new DomainError('not_found', `billing box ${id} does not exist`);
  const [box] = await boxDetails(em, [id]);
  return box;
}

/** Boxes by id for a dataloader: null where the caller may not see it. */
export async function boxesByIds(em: Em, ids: readonly string[]): Promise<(BoxData | null)[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  const visible = wanted.length ? await em.find(BillingBox, { id: { $in: wanted } }, { fields: ['id'] }) : [];
  const details = await boxDetails(em, visible.map((b) => b.id));
  const byId = new Map(details.map((b) => [b.id, b]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
}

/**
 * The end user's boxes: of the customers they are authorized over, made by their own administration
 * (the customers'). Another administration may bill one of them (a subscription there): its boxes are
 * not this end user's to see.
 */
const endUserBoxFilter = (scope: EndUserScope, partyIds: string[]) => ({ partyId: { $in: partyIds }, admin: scope.adminId });

/** A customer's boxes for the end user (App API): the customer must be authorized, else 400 not_found. Newest first. */
export async function endUserBoxPage(em: Em, scope: EndUserScope, customerId: string, range: OffsetRange): Promise<OffsetResult<BoxData>> {
  const partyId = inScope(scope.customerIds, customerId, 'customer');
  const page = await findOffsetPage(em, BillingBox, endUserBoxFilter(scope, [partyId]), range, { fields: ['id'], orderBy: { periodFrom: 'desc', id: 'desc' } });
  return { items: await boxDetails(em, page.items.map((b) => b.id)), hasNextPage: page.hasNextPage };
}

/** The boxes of every customer the end user is authorized over (the GraphQL viewer), newest first. */
export async function endUserBoxes(em: Em, scope: EndUserScope, limit: number): Promise<BoxData[]> {
  if (!scope.customerIds.length) return [];
  const rows = await em.find(BillingBox, endUserBoxFilter(scope, scope.customerIds), { fields: ['id'], orderBy: { periodFrom: 'desc', id: 'desc' }, limit });
  return boxDetails(em, rows.map((b) => b.id));
}

/** A box of an authorized customer, or 400 not_found (a subscription authorization shows no boxes). */
export async function getEndUserBox(em: Em, scope: EndUserScope, id: string): Promise<BoxData> {
  const visible = isUuid(id) && scope.customerIds.length
    ? await em.findOne(BillingBox, { id, ...endUserBoxFilter(scope, scope.customerIds) }, { fields: ['id'] })
    : null;
  if (!visible) throw new DomainError('not_found', `billing box ${id} does not exist`);
  const [box] = await boxDetails(em, [id]);
  return box;
}
