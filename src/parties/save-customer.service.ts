import { LockMode } from '@mikro-orm/core';
import { callerScope, canSeeAdministration } from '../access/admin-scope.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { Administration } from './administration.entity.ts';
import { Customer } from './customer.entity.ts';
import { administrationNamed, applyCustomerPatch, hasCreateFields, isStaleUpdate, requireCreateFields, type CustomerPatch } from './customer-input.ts';
import { insertCreated } from '../events/insert-created.ts';
import { flushAsLastChange } from '../events/record-events.ts';
import { setsOtherExternalReference } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { customerData, type CustomerData } from './customer.queries.ts';

/**
 * What a write naming a customer by external reference needs, read in one statement: the customer
 * holding the reference in any administration (references are unique in the whole instance,
 * decisions.md) and the administration `adminId` names, as stored. Which of them the caller sees is
 * the administration scope's rule (canSeeAdministration, the em's filter in code). In a
 * transaction the customer stays locked to its end (an upsert reads and changes it).
 */
const WRITE_FACTS = `select (select a.id from administration a where a.id = ?) as named_admin_id, c.*
  from (values (1)) as one left join lateral (select * from customer c where c.external_reference = ? for update) c on true`;

interface WriteFacts {
  /** The customer with the reference, managed by `em`, when the caller sees it. */
  visible: Customer | null;
  /** Another customer (one the caller does not see) holds the reference. */
  takenElsewhere: boolean;
  /** The administration `adminId` names, when it exists and the caller sees it. */
  admin: Administration | null;
}

async function writeFacts(em: Em, externalReference: string | null | undefined, adminId: string | null | undefined): Promise<WriteFacts> {
  // Two short values: inlined by the ORM (a simple query, as its own statements), not bound.
  const [{ named_admin_id: namedAdminId, ...row }] = await em.execute<Record<string, any>[]>(WRITE_FACTS, [adminId || null, externalReference ?? null]);
  const scope = callerScope(em);
  const holder = row.id === null ? null : row;
  const visible = holder && canSeeAdministration(scope, holder.admin_id) ? em.map(Customer, holder) : null;
  return {
    visible,
    takenElsewhere: holder !== null && !visible,
    admin: namedAdminId !== null && canSeeAdministration(scope, namedAdminId) ? em.getReference(Administration, namedAdminId) : null,
  };
}

/** A new customer in the administration the patch names; `facts` read for its reference and administration. */
async function insertCustomer(em: Em, patch: CustomerPatch, facts?: WriteFacts): Promise<Customer> {
  requireCreateFields(patch);
  if (!patch.adminId) throw new InvalidInputError('admin_id is required', { path: ['admin_id'] });
  if (!facts) {
    const created = await createWhenFree(em, patch);
    if (created) return created;
    facts = await writeFacts(em, patch.externalReference, patch.adminId);
  }
  if (!facts.admin) throw new NotFoundError('administration', { path: ['admin_id'] });
  if (facts.visible || facts.takenElsewhere) throw referenceTaken();
  const customer = em.create(Customer, { admin: facts.admin, name: patch.name!, country: patch.country! });
  applyCustomerPatch(customer, patch);
  await flushCustomer(em);
  return customer;
}

/**
 * A new customer written with its event by one statement, when the patch has what a create needs,
 * the caller may create it in the administration the patch names (as stored), and no customer holds
 * the reference the patch gives; else null, nothing written, and the general path finds out what applies.
 */
async function createWhenFree(em: Em, patch: CustomerPatch): Promise<Customer | null> {
  if (!patch.adminId || !hasCreateFields(patch) || !canSeeAdministration(callerScope(em), patch.adminId)) return null;
  const customer = em.create(Customer, { admin: em.getReference(Administration, patch.adminId), name: patch.name!, country: patch.country! }, { persist: false });
  applyCustomerPatch(customer, patch);
  const inserted = await insertCreated(em, customer, { unlessTaken: 'externalReference', requires: { entity: Administration, id: patch.adminId } });
  return inserted ? customer : null;
}

/** A reference taken between the check and the flush, by a request at the same moment, is the check's 400 too. */
const flushCustomer = (em: Em) => flushUnique(em, { customer_external_reference_unique: ['external_reference'] }, () => flushAsLastChange(em));

const referenceTaken = () => new DomainError('duplicate', 'external_reference is already used by another customer', { path: ['external_reference'] });

export async function createCustomer(em: Em, patch: CustomerPatch): Promise<CustomerData> {
  return customerData(await insertCustomer(em, patch));
}

/**
 * POST /customer/{id}: merge-update. On `ext_ref.<ref>` a missing customer is created with that
 * reference (the path's reference wins over the body's); on an id it must exist.
 */
export async function upsertCustomer(em: Em, ref: ResourceRef, patch: CustomerPatch): Promise<{ customer: CustomerData; created: boolean }> {
  if ('externalReference' in ref) {
    const created = await createWhenFree(em, { ...patch, externalReference: ref.externalReference });
    if (created) return { customer: customerData(created), created: true };
  }
  // The customer is read locked and changed in one transaction: merges sent at once all apply.
  return em.transactional(async (tx) => {
    if ('externalReference' in ref) {
      const facts = await writeFacts(tx, ref.externalReference, patch.adminId);
      if (!facts.visible) {
        // A reference another administration's customer holds is taken (insertCustomer says so).
        return { customer: customerData(await insertCustomer(tx, { ...patch, externalReference: ref.externalReference }, facts)), created: true };
      }
      if (patch.adminId !== undefined && patch.adminId !== null && !facts.admin) throw new NotFoundError('administration', { path: ['admin_id'] });
      // The path names the record; a body reference does not rename it.
      return { customer: await updateCustomer(tx, facts.visible, { ...patch, externalReference: undefined }), created: false };
    }
    const customer = await getByRef(tx, Customer, ref, 'customer');
    await tx.refresh(customer, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await assertNamedRecordsVisible(tx, [administrationNamed(patch.adminId)]);
    return { customer: await updateCustomer(tx, customer, patch), created: false };
  });
}

async function updateCustomer(em: Em, customer: Customer, patch: CustomerPatch): Promise<CustomerData> {
  if (isStaleUpdate(customer.externalUpdatedAt, patch.externalUpdatedAt)) return customerData(customer);
  if (setsOtherExternalReference(patch.externalReference, customer.externalReference)) {
    const facts = await writeFacts(em, patch.externalReference, null);
    if (facts.visible || facts.takenElsewhere) throw referenceTaken();
  }
  applyCustomerPatch(customer, patch);
  await flushCustomer(em);
  return customerData(customer);
}

export async function setCustomerChargeAuthBlocked(em: Em, ref: ResourceRef, blocked: boolean): Promise<CustomerData> {
  const customer = await getByRef(em, Customer, ref, 'customer');
  if (blocked) customer.blockChargeAuthRequests();
  else customer.unblockChargeAuthRequests();
  await em.flush();
  return customerData(customer);
}
