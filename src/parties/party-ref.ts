import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Em } from '../platform/orm.ts';
import { findByRef, type NamedRecord, type ResourceRef } from '../platform/resource-ref.ts';
import type { CustomerRefInput } from './customer-ref.ts';
import { Customer } from './customer.entity.ts';
import { RoamingPartner } from './roaming-partner.entity.ts';

/**
 * A body naming its party (decisions.md, facts of the public guide): `party_id` or
 * `party_external_reference`; `customer_id` and `customer_external_reference` are the older
 * names of the same two members.
 */
export interface PartyRefInput extends CustomerRefInput {
  partyId?: string | null;
  partyExternalReference?: string | null;
}

const MEMBERS = [
  { key: 'partyId', member: 'party_id', by: 'id' },
  { key: 'partyExternalReference', member: 'party_external_reference', by: 'externalReference' },
  { key: 'customerId', member: 'customer_id', by: 'id' },
  { key: 'customerExternalReference', member: 'customer_external_reference', by: 'externalReference' },
] as const;

const refOf = (by: 'id' | 'externalReference', value: string): ResourceRef => (by === 'id' ? { id: value } : { externalReference: value });

/** A customer or roaming partner the caller may see (roaming partners are shared by the instance). */
async function findParty(em: Em, ref: ResourceRef): Promise<Customer | RoamingPartner | null> {
  return (await findByRef(em, Customer, ref, 'party')) ?? findByRef(em, RoamingPartner, ref, 'party');
}

/**
 * The customer a body names (a new billing address, a custom item): exactly one of the four members
 * must be given. Billing addresses belong to customers; a roaming partner keeps its billing data on
 * itself. With `adminId`, only a customer of that administration: one of another is not there for
 * it (400 not_found at the member), whatever else the caller sees.
 */
export async function resolvePartyCustomer(em: Em, input: PartyRefInput, prefix: FieldPath = [], adminId?: string): Promise<Customer> {
  const given = MEMBERS.filter(({ key }) => input[key] !== undefined && input[key] !== null);
  if (given.length === 0) {
    throw new InvalidInputError('party_id or party_external_reference is required', { path: [...prefix, 'party_id'] });
  }
  if (given.length > 1) {
    throw new InvalidInputError(`give exactly one of party_id and party_external_reference, not ${given.map((g) => g.member).join(' and ')}`,
      { path: [...prefix, given[0].member] });
  }
  const { key, member, by } = given[0];
  const path = [...prefix, member];
  const party = await findParty(em, refOf(by, input[key]!));
  if (!party) throw new NotFoundError('party', { path });
  if (!(party instanceof Customer)) {
    throw new InvalidInputError(`${member} names a roaming partner; billing addresses belong to customers`, { path });
  }
  if (adminId !== undefined && party.admin.id.toLowerCase() !== adminId.toLowerCase()) {
    throw new NotFoundError('party (a customer of the administration)', { path });
  }
  return party;
}

/** The party members of a body, for assertNamedRecordsVisible where they are ignored (on update). */
export function partyNamed(input: PartyRefInput, prefix: FieldPath = []): NamedRecord[] {
  return MEMBERS.map(({ key, member, by }) => ({
    path: [...prefix, member], what: 'party', value: input[key], find: (em: Em, value: string) => findParty(em, refOf(by, value)),
  }));
}
