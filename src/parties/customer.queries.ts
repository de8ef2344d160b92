// The customer reads both transports call (REST GET /customer and /customer/{id}, GraphQL
// `customers`, `customer`, the Customer node and an administration's customers): plain data, the
// caller's administrations only (the em's administration filter).
import { childPages } from '../platform/child-pages.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { dataByIds, dataByRef, refs, type RowShape } from '../platform/plain-reads.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { Customer } from './customer.entity.ts';
import { scopedRead } from '../access/admin-scope.ts';

export type CustomerData = Pick<Customer, 'id' | 'name' | 'country' | 'entityType' | 'externalReference' | 'companyRegNum' | 'localeId'
  | 'billingEmail' | 'billingPhone' | 'reimbursementVat' | 'billingRollupGroupBy' | 'customFields' | 'chargeAuthBlocked'
  | 'externalUpdatedAt' | 'createdAt' | 'updatedAt'> & { admin: { id: string } };

const CUSTOMER: RowShape<CustomerData> = { entity: Customer, map: (row) => refs(row, 'admin') as CustomerData };

export interface CustomerFilter {
  adminId?: string;
  externalReference?: string;
  /** A part of the name, case-insensitive (read through the trigram index: at least NAME_SEARCH_MIN characters). */
  nameContains?: string;
}

export const NAME_SEARCH_MIN = 3;

/** `value` as a literal inside an ILIKE pattern. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Customers by id, optionally of one administration or with one external reference. */
export function customerList(em: Em, filter: CustomerFilter = {}): SeekList<CustomerData> {
  return new SeekList<CustomerData>(em, {
    ...CUSTOMER, plainColumns: true,
    ...scopedRead(em, {
      ...(filter.externalReference !== undefined ? { externalReference: filter.externalReference } : {}),
      ...(filter.adminId !== undefined ? { admin: filter.adminId } : {}),
      ...(filter.nameContains !== undefined ? { name: { $ilike: `%${likeLiteral(filter.nameContains)}%` } } : {}),
    }, 'admin'),
  });
}

/** A customer by id or external reference, or null when the caller sees none. */
export function findCustomer(em: Em, ref: ResourceRef): Promise<CustomerData | null> {
  return dataByRef(em, CUSTOMER, ref);
}

export async function getCustomer(em: Em, ref: ResourceRef): Promise<CustomerData> {
  const customer = await findCustomer(em, ref);
  if (!customer) throw new NotFoundError('customer');
  return customer;
}

/** GraphQL's Customer loader. */
export function customersByIds(em: Em, ids: readonly string[]): Promise<CustomerData[]> {
  return dataByIds(em, CUSTOMER, ids);
}

/** A page of customers of each administration (GraphQL Administration.customers), in one query. */
export function customersOfAdministrations(em: Em, adminIds: readonly string[], range: SeekRange): Promise<CustomerData[][]> {
  return childPages(em, { ...CUSTOMER, parent: 'admin' }, adminIds, range);
}

/** A customer a service created or changed, as the answers show it. */
export function customerData(customer: Customer): CustomerData {
  return plainData(customer);
}
