import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { lookupByExternalReference, lookupById, type NamedRecord } from '../platform/resource-ref.ts';
import { Customer } from './customer.entity.ts';

/** A body naming a customer by `customer_id` or `customer_external_reference`. */
export interface CustomerRefInput {
  customerId?: string | null;
  customerExternalReference?: string | null;
}

/**
 * The customer a new record belongs to: exactly one of the two references must be given
 * (decisions.md). A customer the caller cannot see is answered like a missing one.
 * `prefix` is the place of the object holding the two members.
 */
export async function resolveCustomer(em: Em, input: CustomerRefInput, prefix: FieldPath = []): Promise<Customer> {
  const idParam = [...prefix, 'customer_id'];
  const refParam = [...prefix, 'customer_external_reference'];
  const hasId = input.customerId !== undefined && input.customerId !== null;
  const hasRef = input.customerExternalReference !== undefined && input.customerExternalReference !== null;
  if (hasId && hasRef) {
    throw new InvalidInputError('give either customer_id or customer_external_reference, not both', { path: idParam });
  }
  if (!hasId && !hasRef) {
    throw new InvalidInputError('customer_id or customer_external_reference is required', { path: idParam });
  }
  const customer = hasId
    ? (isUuid(input.customerId!) ? await em.findOne(Customer, { id: input.customerId! }) : null)
    : await em.findOne(Customer, { externalReference: input.customerExternalReference! });
  if (!customer) throw new NotFoundError('customer', { path: hasId ? idParam : refParam });
  return customer;
}

/** The two customer members of a body, for assertNamedRecordsVisible where they are ignored (on update). */
export function customerNamed(input: CustomerRefInput, prefix: FieldPath = []): NamedRecord[] {
  return [
    { path: [...prefix, 'customer_id'], what: 'customer', value: input.customerId, find: lookupById(Customer) },
    { path: [...prefix, 'customer_external_reference'], what: 'customer', value: input.customerExternalReference, find: lookupByExternalReference(Customer) },
  ];
}
