import { refuseBlank } from '../platform/blank-text.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { createUnlessTaken, flushUnique } from '../platform/flush-unique.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import type { Customer } from './customer.entity.ts';
import { BillingAddress } from './billing-address.entity.ts';
import { BILLING_ADDRESS, billingAddressDetail, type BillingAddressDetail } from './billing-address.queries.ts';
import { isStaleUpdate } from './customer-input.ts';
import { partyNamed, resolvePartyCustomer } from './party-ref.ts';

export interface BillingAddressFields {
  partyId: string;
  partyExternalReference: string;
  /** Older names of partyId and partyExternalReference. */
  customerId: string;
  customerExternalReference: string;
  addressee: string;
  addressLine1: string;
  addressLine2: string;
  postalCode: string;
  city: string;
  region: string;
  country: string;
  billingPhone: string;
  externalReference: string;
  externalUpdatedAt: Date;
}

export type BillingAddressPatch = Patch<BillingAddressFields>;

const POPULATE = ['customer'];

/** The party is chosen on create only; afterwards its references in a body are ignored. */
function applyBillingAddressPatch(address: BillingAddress, patch: BillingAddressPatch): void {
  const { partyId: _pid, partyExternalReference: _pref, customerId: _id, customerExternalReference: _ref, ...rest } = patch;
  // A document names the addressee instead of the customer: blank, it would name no one (EN 16931 BR-07).
  refuseBlank(patch.addressee, ['addressee']);
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (address as unknown as Record<string, unknown>)[key] = value;
  }
  if (address.country) address.country = address.country.toUpperCase();
}

export async function createBillingAddress(em: Em, patch: BillingAddressPatch): Promise<BillingAddressDetail> {
  return billingAddressDetail(await insertBillingAddress(em, patch));
}

async function insertBillingAddress(em: Em, patch: BillingAddressPatch): Promise<BillingAddress> {
  const customer = await resolvePartyCustomer(em, patch);
  await assertExternalReferenceFree(em, BillingAddress, patch.externalReference, 'billing address');
  return addBillingAddress(em, customer, patch, flushAddress);
}

/** `flush`: the plain one where the unique violation is the check (createUnlessTaken), else flushAddress. */
async function addBillingAddress(em: Em, customer: Customer, patch: BillingAddressPatch, flush: (em: Em) => Promise<void> = (e) => e.flush()): Promise<BillingAddress> {
  const address = em.create(BillingAddress, { customer, admin: customer.admin });
  applyBillingAddressPatch(address, patch);
  await flush(em);
  return address;
}

const EXTERNAL_REFERENCE_UNIQUE = 'billing_address_external_reference_unique';

/** A reference taken between the check and the flush, by a request at the same moment, is the check's 400 too. */
const flushAddress = (em: Em) => flushUnique(em, { [EXTERNAL_REFERENCE_UNIQUE]: ['external_reference'] });

/**
 * POST (merge) or PUT (replace, the patch then holds null for every omitted field) on
 * /billing-address/{id}. On `ext_ref.<ref>` a missing address is created with that reference;
 * on an id it must exist. An update older than the stored external_updated_at is ignored. The
 * same create sent several times at once stores the address once; the others merge into it.
 */
export async function upsertBillingAddress(em: Em, ref: ResourceRef, patch: BillingAddressPatch): Promise<BillingAddressDetail> {
  if ('externalReference' in ref) {
    const existing = await em.findOne(BillingAddress, { externalReference: ref.externalReference });
    if (!existing) {
      // The reference's unique constraint is the check: one a concurrent request stored after the look above is found too.
      const created = await createUnlessTaken(em, EXTERNAL_REFERENCE_UNIQUE, async (tx) => {
        const creating = { ...patch, externalReference: ref.externalReference };
        return billingAddressDetail(await addBillingAddress(tx, await resolvePartyCustomer(tx, creating), creating));
      });
      if (created) return created;
      // A request sent at the same moment created the address first: this one merges into it, as a
      // request right after it would. One the caller does not see is taken: 400 duplicate.
      if (!(await em.findOne(BillingAddress, { externalReference: ref.externalReference }))) {
        await assertExternalReferenceFree(em, BillingAddress, ref.externalReference, 'billing address');
      }
    }
    patch = { ...patch, externalReference: undefined };
  }
  const address = await getByRef(em, BillingAddress, ref, BILLING_ADDRESS, POPULATE);
  await assertNamedRecordsVisible(em, partyNamed(patch));
  if (isStaleUpdate(address.externalUpdatedAt, patch.externalUpdatedAt)) return billingAddressDetail(address);
  if (setsOtherExternalReference(patch.externalReference, address.externalReference)) {
    await assertExternalReferenceFree(em, BillingAddress, patch.externalReference, 'billing address');
  }
  applyBillingAddressPatch(address, patch);
  await flushAddress(em);
  return billingAddressDetail(address);
}

