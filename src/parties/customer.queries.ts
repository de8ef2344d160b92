// The customer reads both transports call (REST GET /customer, GraphQL `customers`): plain data,
// the caller's administrations only (the em's administration filter).
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Customer } from './customer.entity.ts';

export type CustomerData = Pick<Customer, 'id' | 'name' | 'country' | 'entityType' | 'externalReference' | 'companyRegNum' | 'localeId'
  | 'billingEmail' | 'billingPhone' | 'reimbursementVat' | 'billingRollupGroupBy' | 'customFields' | 'chargeAuthBlocked'
  | 'externalUpdatedAt' | 'createdAt' | 'updatedAt'> & { admin: { id: string } };

export interface CustomerFilter {
  adminId?: string;
  externalReference?: string;
}

/** Customers by id, optionally of one administration or with one external reference. */
export function customerList(em: Em, filter: CustomerFilter = {}): SeekList<CustomerData> {
  return new SeekList<CustomerData>(em, {
    entity: Customer,
    where: {
      ...(filter.externalReference !== undefined ? { externalReference: filter.externalReference } : {}),
      ...(filter.adminId !== undefined ? { admin: filter.adminId } : {}),
    },
    map: (row) => ({ ...row, admin: { id: row.admin } }) as CustomerData,
  });
}
