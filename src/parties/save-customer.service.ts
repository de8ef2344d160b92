import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { Customer } from './customer.entity.ts';
import { administrationNamed, applyCustomerPatch, isStaleUpdate, requireCreateFields, visibleAdministration, type CustomerPatch } from './customer-input.ts';
import { customerData, type CustomerData } from './customer.queries.ts';

async function insertCustomer(em: Em, patch: CustomerPatch): Promise<Customer> {
  requireCreateFields(patch);
  const admin = await visibleAdministration(em, patch.adminId);
  await assertExternalReferenceFree(em, Customer, patch.externalReference, 'customer');
  const customer = em.create(Customer, { admin, name: patch.name!, country: patch.country! });
  applyCustomerPatch(customer, patch);
  await em.flush();
  return customer;
}

export async function createCustomer(em: Em, patch: CustomerPatch): Promise<CustomerData> {
  return customerData(await insertCustomer(em, patch));
}

/**
 * POST /customer/{id}: merge-update. On `ext_ref.<ref>` a missing customer is created with that
 * reference (the path's reference wins over the body's); on an id it must exist.
 */
export async function upsertCustomer(em: Em, ref: ResourceRef, patch: CustomerPatch): Promise<{ customer: CustomerData; created: boolean }> {
  if ('externalReference' in ref) {
    const existing = await em.findOne(Customer, { externalReference: ref.externalReference });
    if (!existing) {
      return { customer: customerData(await insertCustomer(em, { ...patch, externalReference: ref.externalReference })), created: true };
    }
    // The path names the record; a body reference does not rename it.
    patch = { ...patch, externalReference: undefined };
  }
  const customer = await getByRef(em, Customer, ref, 'customer');
  await assertNamedRecordsVisible(em, [administrationNamed(patch.adminId)]);
  if (isStaleUpdate(customer.externalUpdatedAt, patch.externalUpdatedAt)) return { customer: customerData(customer), created: false };
  if (patch.externalReference && patch.externalReference.toLowerCase() !== customer.externalReference?.toLowerCase()) {
    await assertExternalReferenceFree(em, Customer, patch.externalReference, 'customer');
  }
  applyCustomerPatch(customer, patch);
  await em.flush();
  return { customer: customerData(customer), created: false };
}

export async function setCustomerChargeAuthBlocked(em: Em, ref: ResourceRef, blocked: boolean): Promise<CustomerData> {
  const customer = await getByRef(em, Customer, ref, 'customer');
  if (blocked) customer.blockChargeAuthRequests();
  else customer.unblockChargeAuthRequests();
  await em.flush();
  return customerData(customer);
}
