// Billing address reads for both transports (REST GET /billing-address/{id} and
// /customer/{id}/billing-address, GraphQL's BillingAddress node and Customer.billingAddresses):
// plain data, the caller's administrations only.
import { childPages } from '../platform/child-pages.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { markData, dataByIds, dataByRef, refs, type RowShape } from '../platform/plain-reads.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { BillingAddress } from './billing-address.entity.ts';
import { getCustomer } from './customer.queries.ts';

export const BILLING_ADDRESS = 'billing address';

/** A billing address as stored: its customer and administration as `{ id }`. */
export type BillingAddressData = Data<BillingAddress>;
/** What REST answers besides: the customer's external reference (party_external_reference). */
export type BillingAddressDetail = Omit<BillingAddressData, 'customer'> & { customer: { id: string; externalReference: string | null } };

const ADDRESS: RowShape<BillingAddressData> = { entity: BillingAddress, map: (row) => refs(row, 'customer', 'admin') as BillingAddressData };

const ADDRESS_DETAIL: RowShape<BillingAddressDetail> = {
  entity: BillingAddress,
  join: ['customer'],
  map: (row) => ({ ...refs(row, 'admin'), customer: { id: row.customer.id, externalReference: row.customer.externalReference ?? null } }) as BillingAddressDetail,
};

export async function getBillingAddress(em: Em, ref: ResourceRef): Promise<BillingAddressDetail> {
  const address = await dataByRef(em, ADDRESS_DETAIL, ref);
  if (!address) throw new NotFoundError(BILLING_ADDRESS);
  return address;
}

/** A customer's billing addresses by id (the customer must be visible: else 400 not_found). */
export async function customerBillingAddressList(em: Em, customerRef: ResourceRef): Promise<SeekList<BillingAddressDetail>> {
  const customer = await getCustomer(em, customerRef);
  const owner = { id: customer.id, externalReference: customer.externalReference ?? null };
  return new SeekList<BillingAddressDetail>(em, {
    entity: BillingAddress, where: { customer: customer.id }, map: (row) => ({ ...refs(row, 'admin'), customer: owner }) as BillingAddressDetail,
  });
}

/** GraphQL's BillingAddress loader. */
export function billingAddressesByIds(em: Em, ids: readonly string[]): Promise<BillingAddressData[]> {
  return dataByIds(em, ADDRESS, ids);
}

/** A page of billing addresses of each customer (GraphQL Customer.billingAddresses), in one query. */
export function billingAddressesOfCustomers(em: Em, customerIds: readonly string[], range: SeekRange): Promise<BillingAddressData[][]> {
  return childPages(em, { ...ADDRESS, parent: 'customer' }, customerIds, range);
}

/** A billing address a service created or changed (its customer loaded), as REST answers it. */
export function billingAddressDetail(address: BillingAddress): BillingAddressDetail {
  return markData({
    ...plainData(address), customer: { id: address.customer.id, externalReference: address.customer.externalReference ?? null },
  }, 'BillingAddress');
}
