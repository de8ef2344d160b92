// Direct debit mandate reads for both transports (REST GET /direct-debit-mandate/{id} and
// /customer/{id}/direct-debit-mandate, GraphQL's DirectDebitMandate node and
// Customer.directDebitMandates): plain data, the caller's administrations only.
import { childPages } from '../platform/child-pages.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { markData, dataByIds, dataByRef, refs, type RowShape } from '../platform/plain-reads.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { getCustomer } from './customer.queries.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { MANDATE } from './direct-debit-mandate-input.ts';

/** A mandate as stored: its customer and administration as `{ id }`. */
export type MandateData = Data<DirectDebitMandate>;
/** What REST answers besides: the customer's external reference. */
export type MandateDetail = Omit<MandateData, 'customer'> & { customer: { id: string; externalReference: string | null } };

const MANDATE_ROW: RowShape<MandateData> = { entity: DirectDebitMandate, map: (row) => refs(row, 'customer', 'admin') as MandateData };

const MANDATE_DETAIL: RowShape<MandateDetail> = {
  entity: DirectDebitMandate,
  join: ['customer'],
  map: (row) => ({ ...refs(row, 'admin'), customer: { id: row.customer.id, externalReference: row.customer.externalReference ?? null } }) as MandateDetail,
};

export async function getMandate(em: Em, ref: ResourceRef): Promise<MandateDetail> {
  const mandate = await dataByRef(em, MANDATE_DETAIL, ref);
  if (!mandate) throw new NotFoundError(MANDATE);
  return mandate;
}

/** A customer's mandates by id (the customer must be visible: else 400 not_found). */
export async function customerMandateList(em: Em, customerRef: ResourceRef): Promise<SeekList<MandateDetail>> {
  const customer = await getCustomer(em, customerRef);
  const owner = { id: customer.id, externalReference: customer.externalReference ?? null };
  return new SeekList<MandateDetail>(em, {
    entity: DirectDebitMandate, where: { customer: customer.id }, map: (row) => ({ ...refs(row, 'admin'), customer: owner }) as MandateDetail,
  });
}

/** GraphQL's DirectDebitMandate loader. */
export function mandatesByIds(em: Em, ids: readonly string[]): Promise<MandateData[]> {
  return dataByIds(em, MANDATE_ROW, ids);
}

/** A page of mandates of each customer (GraphQL Customer.directDebitMandates), in one query. */
export function mandatesOfCustomers(em: Em, customerIds: readonly string[], range: SeekRange): Promise<MandateData[][]> {
  return childPages(em, { ...MANDATE_ROW, parent: 'customer' }, customerIds, range);
}

/** A mandate a service created or changed (its customer loaded), as REST answers it. */
export function mandateDetail(mandate: DirectDebitMandate): MandateDetail {
  return markData({
    ...plainData(mandate), customer: { id: mandate.customer.id, externalReference: mandate.customer.externalReference ?? null },
  }, 'DirectDebitMandate');
}
