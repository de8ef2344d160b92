// The columns every contract, link and plan of the three contract families shares (MSP token
// subscriptions and token links; CPO subscriptions and EVSE links; reimbursement arrangements and
// EVSE links; their plans), as defineEntity property sets. An entity spreads one set and adds the
// members of its own (its plan, the token or EVSE of a link, a balance), so the column names,
// types, defaults and unique constraints stay those of each table.
import { defineEntity, p, type EntityClass } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Customer } from '../parties/customer.entity.ts';
import { recordsEvents, type EventKindName } from '../events/event-kinds.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';

/** Creation and update stamps: the last members of every set. */
const stamps = () => ({ createdAt: createdAtProperty(), updatedAt: updatedAtProperty() });

/**
 * A contract: a customer's agreement in an administration, valid in [valid_from, valid_until),
 * defunct for good once marked. The customer may belong to another administration: that must not
 * hide the contract (no filtered join on this ref).
 */
export const contractProperties = () => ({
  id: idProperty(),
  admin: () => p.manyToOne(Administration).index(),
  customer: () => p.manyToOne(Customer).index().filters({ [ADMIN_SCOPE]: false }),
  buyerReference: p.string().nullable(),
  validFrom: p.datetime(),
  validUntil: p.datetime().nullable(),
  defunct: p.boolean().default(false),
  customFields: p.json<Record<string, unknown>>().onCreate(() => ({})),
  externalReference: identifierProperty().nullable().unique(),
  externalUpdatedAt: p.datetime().nullable(),
  ...stamps(),
});

/**
 * A link of a contract to what it covers (a token, an EVSE): valid from its own valid_from, which
 * null defers to the contract's, until its valid_until (src/platform/validity.ts linkInterval).
 */
export const linkProperties = () => ({
  id: idProperty(),
  admin: () => p.manyToOne(Administration),
  validFrom: p.datetime().nullable(),
  validUntil: p.datetime().nullable(),
  defunct: p.boolean().default(false),
  externalUpdatedAt: p.datetime().nullable(),
  ...stamps(),
});

/** A plan contracts are made under: named, with a publishing window that is not enforced. */
export const planProperties = () => ({
  id: idProperty(),
  admin: () => p.manyToOne(Administration).index(),
  name: p.string(),
  description: p.text().nullable(),
  /** The intended window for new contracts; not enforced when they are made. */
  publishFrom: p.datetime().nullable(),
  publishUntil: p.datetime().nullable(),
  externalReference: identifierProperty().nullable().unique(),
  ...stamps(),
});

/** An entity of an administration (scope filter on `admin`) with one of the shared sets and its own members. */
function defineScoped<const TName extends string, const TTable extends string, const TShared extends Record<string, any>, const TOwn extends Record<string, any>>(
  name: TName, tableName: TTable, shared: TShared, own: TOwn,
) {
  return defineEntity({ name, tableName, filters: adminScopeFilter('admin'), properties: { ...shared, ...own } as Omit<TShared, keyof TOwn> & TOwn });
}

/** A contract entity: the contract columns and its own members (its plan, a balance; a narrower customFields type). */
export const defineContract = <const TName extends string, const TTable extends string, const TOwn extends Record<string, any>>(
  name: TName, tableName: TTable, own: TOwn,
) => defineScoped(name, tableName, contractProperties(), own);

/** A member of a link: its name and entity (a thunk, as entities import one another). */
type LinkMember<K extends string, T extends object> = readonly [name: K, entity: () => EntityClass<T>];

/** A reference to the link's contract or to what it covers, indexed (links are read by both). */
const linkRef = <T extends object>(entity: () => EntityClass<T>) => () => p.manyToOne(entity()).index();

/**
 * A link entity: the link columns, the member holding its contract and the one it covers (a token,
 * an EVSE). `coveredAcrossAdministrations`: what it covers may move to another administration and
 * stays part of the link's history (no filtered join on it). Every link records its events under
 * its table's name.
 */
export function defineLink<const TName extends string, const TTable extends EventKindName, const C extends string, CT extends object, const M extends string, MT extends object>(
  name: TName, tableName: TTable, members: { contract: LinkMember<C, CT>; covers: LinkMember<M, MT>; coveredAcrossAdministrations?: boolean },
) {
  const [contractName, contract] = members.contract;
  const [coveredName, covered] = members.covers;
  const coveredRef = members.coveredAcrossAdministrations
    ? () => linkRef(covered)().filters({ [ADMIN_SCOPE]: false })
    : linkRef(covered);
  const own = { [contractName]: linkRef(contract), [coveredName]: coveredRef } as
    Record<C, ReturnType<typeof linkRef<CT>>> & Record<M, ReturnType<typeof linkRef<MT>>>;
  recordsEvents({ name }, tableName);
  return defineScoped(name, tableName, linkProperties(), own);
}

/** A plan entity: the plan columns and its own members. */
export const definePlan = <const TName extends string, const TTable extends string, const TOwn extends Record<string, any>>(
  name: TName, tableName: TTable, own: TOwn,
) => defineScoped(name, tableName, planProperties(), own);
