// The shared steps of the contract families' use cases (MSP token subscriptions and links, CPO
// subscriptions and EVSE links, reimbursement arrangements and EVSE links). Each family's service
// is a thin use case: it opens the transaction, loads what only it knows (plan, customer, token,
// EVSE), calls these steps with its own entity, name and error codes, and flushes once.
import { LockMode, type EntityName, type FilterQuery, type FindOneOptions, type RequiredEntityData } from '@mikro-orm/core';
import { Customer } from '../parties/customer.entity.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered, intervalsOverlap, type BoundsOrder } from '../platform/validity.ts';

/** The members of a contract a request may set (REST: `CONTRACT` of rest/rails/contracts.ts), the merge patch of an update. */
export interface ContractFields {
  buyerReference: string;
  validFrom: Date;
  validUntil: Date;
  customFields: Record<string, unknown>;
  externalReference: string;
  externalUpdatedAt: Date;
}

/** The members of a link a request may set. */
export interface LinkFields {
  validFrom: Date;
  validUntil: Date;
  externalUpdatedAt: Date;
}

/** What the shared steps touch of a contract entity. */
export interface ContractRecord {
  id: string;
  admin: { id: string };
  validFrom: Date;
  validUntil?: Date | null;
  defunct: boolean;
  customFields?: unknown;
  externalReference?: string | null;
  externalUpdatedAt?: Date | null;
  assertChangeable(path?: FieldPath): void;
}

/** What the shared steps touch of a link entity. */
export interface LinkRecord {
  validFrom?: Date | null;
  validUntil?: Date | null;
  defunct: boolean;
  externalUpdatedAt?: Date | null;
  assertChangeable(path?: FieldPath): void;
}

/** A contract family: its entity, its name in messages, its external_reference constraint. */
export interface ContractKind<C> {
  entity: EntityName<C>;
  what: string;
  unique: Record<string, FieldPath>;
}

/** A link family: its entity, the member that holds its contract, its name in messages, what a write loads with it. */
export interface LinkKind<L extends object> {
  entity: EntityName<L>;
  contract: string;
  what: string;
  populate: readonly string[];
}

/** A link's span: from its own start, else its contract's, until its end (null: open-ended). */
export interface LinkSpan {
  from: Date;
  until: Date | null;
}

/**
 * A record of the family by id (a malformed id is no record): else `not_found` naming `what`.
 * `lock`: its row locked for the transaction and read again, so that a write that waited for
 * another works on that one's result (a merge keeps its members, a change of bounds starts from them).
 */
export async function findById<T extends object>(
  em: Em, entity: EntityName<T>, id: string, what: string, populate: readonly string[] = [], options: { lock?: boolean } = {},
): Promise<T> {
  if (!isUuid(id)) throw new NotFoundError(what);
  const where = { id } as FilterQuery<NoInfer<T>>;
  // Locked: its own row only (a join's FOR UPDATE would lock its plan and customer too), what it
  // loads read after, unlocked.
  const record = options.lock
    ? await em.findOne(entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    : await em.findOne(entity, where, { populate: populate as FindOneOptions<T>['populate'] });
  if (!record) throw new NotFoundError(what);
  if (options.lock && populate.length) await em.populate(record, populate as FindOneOptions<T>['populate'] as Parameters<Em['populate']>[1]);
  return record;
}

/** The link a write changes (with what its family loads), or 400 not_found naming the family; `lock` as findById's. */
export function findLink<L extends object>(em: Em, kind: LinkKind<L>, id: string, options: { lock?: boolean } = {}): Promise<L> {
  return findById(em, kind.entity, id, kind.what, kind.populate, options);
}

/**
 * A link a write changes, or 400 not_found: its contract's turn first (`lockContract`, which every
 * write of the contract takes), then the link locked and read again.
 */
export async function lockLink<L extends object>(em: Em, kind: LinkKind<L>, id: string, lockContract: (contractId: string) => Promise<unknown>): Promise<L> {
  const found = await findLink(em, kind, id);
  // The member named by the family holds its contract (a reference with an id).
  await lockContract((found as unknown as Record<string, { id: string }>)[kind.contract].id);
  return findLink(em, kind, id, { lock: true });
}

/** The customer of a new contract, one the caller sees, named by the body's customer_id. */
export async function contractCustomer(em: Em, customerId: string | undefined): Promise<Customer> {
  const customer = customerId && isUuid(customerId) ? await em.findOne(Customer, { id: customerId }) : null;
  if (!customer) throw new NotFoundError('customer', { path: ['customer_id'] });
  return customer;
}

/** The contract a new link names (`path`: the body member), which must not be defunct. */
export async function contractToLink<C extends ContractRecord>(find: () => Promise<C> | null, what: string, path: FieldPath): Promise<C> {
  const contract = await find()?.catch(() => null);
  if (!contract) throw new NotFoundError(what, { path });
  contract.assertChangeable();
  return contract;
}

/** A merge patch of a contract's own members: valid_from stays set, custom_fields merge, bounds ordered. */
export function applyContractPatch(contract: ContractRecord, patch: Patch<ContractFields>): void {
  if (patch.validFrom === null) throw new InvalidInputError('valid_from cannot be removed', { path: ['valid_from'] });
  const customFields = patch.customFields === undefined ? undefined
    : patch.customFields === null ? {} : mergeCustomFields(contract.customFields, patch.customFields);
  applyPatch(contract, { ...patch, customFields } as Patch<ContractRecord>);
  assertValidityOrdered(contract.validFrom, contract.validUntil);
}

/** Creates a contract of the family from its parties (`values`) and fields; flushed. */
export async function createContract<C extends ContractRecord>(em: Em, kind: ContractKind<C>, values: Record<string, unknown>, fields: Patch<ContractFields>): Promise<C> {
  if (!fields.validFrom) throw new InvalidInputError('valid_from is required', { path: ['valid_from'] });
  await assertExternalReferenceFree(em, kind.entity, fields.externalReference, kind.what);
  // The family's data: MikroORM cannot check required members against a type parameter.
  const contract = em.create(kind.entity, { ...values, validFrom: fields.validFrom } as unknown as RequiredEntityData<C>);
  applyContractPatch(contract, fields);
  await flushUnique(em, kind.unique);
  return contract;
}

/** Merge-updates (or, with a patch of every member, replaces) a contract that is not defunct; flushed. */
export async function updateContract<C extends ContractRecord>(em: Em, kind: ContractKind<C>, contract: C, patch: Patch<ContractFields>): Promise<C> {
  contract.assertChangeable();
  if (setsOtherExternalReference(patch.externalReference, contract.externalReference)) {
    await assertExternalReferenceFree(em, kind.entity, patch.externalReference, kind.what);
  }
  applyContractPatch(contract, patch);
  await flushUnique(em, kind.unique);
  return contract;
}

/**
 * Marks a contract or a link defunct (idempotent; an external_updated_at given is recorded) and,
 * for a contract, its links that are not yet (`cascade`), in the caller's transaction; flushed.
 */
export async function markDefunct<R extends { defunct: boolean; externalUpdatedAt?: Date | null }, L extends LinkRecord = LinkRecord>(
  em: Em, record: R, externalUpdatedAt: Date | null | undefined,
  cascade?: { links: LinkKind<L>; options?: { filters?: boolean } },
): Promise<R> {
  record.defunct = true;
  if (externalUpdatedAt) record.externalUpdatedAt = externalUpdatedAt;
  if (cascade) {
    const links: L[] = await em.find(cascade.links.entity, { [cascade.links.contract]: record, defunct: false } as FilterQuery<L>, cascade.options);
    for (const link of links) link.defunct = true;
  }
  await em.flush();
  return record;
}

/** The span of a link with these bounds under `contract`, checked for order (valid_until, or `order`). */
export function orderedLinkSpan(contract: { validFrom: Date }, bounds: { validFrom?: Date | null; validUntil?: Date | null }, order?: BoundsOrder): LinkSpan {
  const span = { from: bounds.validFrom ?? contract.validFrom, until: bounds.validUntil ?? null };
  assertValidityOrdered(span.from, span.until, order);
  return span;
}

/** Creates (persists, does not flush) a link of `contract` in its administration; `values`: what it covers. */
export function newLink<L extends object>(em: Em, kind: LinkKind<L>, contract: ContractRecord, values: Record<string, unknown>, bounds: Patch<LinkFields>): L {
  return em.create(kind.entity, {
    admin: contract.admin, [kind.contract]: contract, ...values, validFrom: bounds.validFrom ?? null, validUntil: bounds.validUntil ?? null,
  } as RequiredEntityData<L>);
}

/** A merge patch of a link that is not defunct, its span (from its contract's start when it defers) ordered. */
export function applyLinkPatch(link: LinkRecord, contract: { validFrom: Date }, patch: Patch<LinkFields>): void {
  link.assertChangeable();
  applyPatch(link, patch as Patch<LinkRecord>);
  orderedLinkSpan(contract, link);
}

/** The first of `links` whose span overlaps `span` ("one contract at a time" rules: a token's links). */
export function clashingLink<L extends { effectiveFrom(): Date; validUntil?: Date | null }>(links: L[], span: LinkSpan): L | undefined {
  const spanValidity = { validFrom: span.from, validUntil: span.until };
  return links.find((link) => intervalsOverlap(spanValidity, { validFrom: link.effectiveFrom(), validUntil: link.validUntil }));
}
