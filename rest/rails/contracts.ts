// The REST shapes of the contract families (MSP token subscriptions and links, CPO subscriptions and
// EVSE links, reimbursement arrangements and EVSE links), from one helper: the bodies and member
// mappings of a contract and a link, the optional body of a defunct operation, the members every
// contract and every link answers, and their values. A family adds its own members in named slots,
// so each representation keeps its members in the order the document has always listed them.
import * as yup from 'yup';
import { customFields, externalRef, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import type { CustomFields } from '../../src/parties/customer.entity.ts';
import type { FieldMapping } from './patch.ts';
import { representation, t, type Field, type ObjectOf } from './shape.ts';

type Fields = Record<string, Field<unknown>>;

/** A link's members in a request: its bounds (valid_from null defers to the contract's) and external_updated_at. */
export const linkBody = yup.object({ valid_from: timestamp().nullable(), valid_until: timestamp().nullable(), external_updated_at: timestamp().nullable() });

export const LINK: FieldMapping = {
  valid_from: { to: 'validFrom', convert: isoDate }, valid_until: { to: 'validUntil', convert: isoDate }, external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

/** The optional body of PUT .../defunct. */
export const defunctBody = yup.object({ external_updated_at: timestamp().nullable() });

/** A contract's own members in a request (its parties are the family's). */
export const contractMembers = {
  buyer_reference: text().nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  custom_fields: customFields().nullable(),
  external_reference: externalRef().nullable(),
  external_updated_at: timestamp().nullable(),
};
export const contractBody = yup.object(contractMembers);

export const CONTRACT: FieldMapping = {
  buyer_reference: 'buyerReference', valid_from: { to: 'validFrom', convert: isoDate }, valid_until: { to: 'validUntil', convert: isoDate },
  custom_fields: 'customFields', external_reference: 'externalReference', external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

/** The members a family adds to a contract: its plan after customer_id, then at the given places. */
interface ContractSlots<P extends Fields, S extends Fields, C extends Fields, L extends Fields> {
  plan: P;
  /** after defunct */
  state?: S;
  /** after custom_fields */
  custom?: C;
  /** after external_updated_at */
  late?: L;
}

/** A contract's representation: id, administration, customer, the family's plan, validity, state, references, stamps. */
export function contractShape<P extends Fields, S extends Fields = {}, C extends Fields = {}, L extends Fields = {}>(name: string, slots: ContractSlots<P, S, C, L>) {
  return representation(name, {
    id: t.string(), admin_id: t.string(), customer_id: t.string(), ...slots.plan,
    buyer_reference: t.nullable(t.string()), valid_from: t.timestamp(), valid_until: t.nullable(t.timestamp()), defunct: t.boolean(), ...(slots.state ?? {} as S),
    custom_fields: t.customFields(), ...(slots.custom ?? {} as C),
    external_reference: t.nullable(t.string()), external_updated_at: t.nullable(t.timestamp()), ...(slots.late ?? {} as L),
    created_at: t.timestamp(), updated_at: t.timestamp(),
  });
}

/** The members a family adds to a link: its contract and what it covers (and admin_id where it stands), then at the given places. */
interface LinkSlots<H extends Fields, F extends Fields, S extends Fields> {
  /** after id, admin_id among them */
  head: H;
  /** after valid_from */
  from?: F;
  /** after defunct */
  state?: S;
}

/** A link's representation: id, the family's head, validity, state, external_updated_at, stamps. */
export function linkShape<H extends Fields, F extends Fields = {}, S extends Fields = {}>(name: string, slots: LinkSlots<H, F, S>) {
  return representation(name, {
    id: t.string(), ...slots.head,
    valid_from: t.nullable(t.timestamp()), ...(slots.from ?? {} as F), valid_until: t.nullable(t.timestamp()), defunct: t.boolean(), ...(slots.state ?? {} as S),
    external_updated_at: t.nullable(t.timestamp()), created_at: t.timestamp(), updated_at: t.timestamp(),
  });
}

/** The members of a link a representation always answers. */
export const adminMember = { admin_id: t.string() };

interface Stamped {
  id: string;
  admin: { id: string };
  validFrom?: Date | null;
  validUntil?: Date | null;
  defunct: boolean;
  externalUpdatedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The values every link answers. */
export function linkValues(l: Stamped) {
  return {
    id: l.id, admin_id: l.admin.id, valid_from: iso(l.validFrom), valid_until: iso(l.validUntil), defunct: l.defunct,
    external_updated_at: iso(l.externalUpdatedAt), created_at: iso(l.createdAt), updated_at: iso(l.updatedAt),
  };
}

/** The values every contract answers. */
export function contractValues(c: Stamped & { validFrom: Date; customer: { id: string }; buyerReference?: string | null; customFields?: unknown; externalReference?: string | null }) {
  return {
    ...linkValues(c), valid_from: iso(c.validFrom), customer_id: c.customer.id, buyer_reference: c.buyerReference ?? null,
    custom_fields: (c.customFields ?? {}) as CustomFields, // checked by customFields() on input
    external_reference: c.externalReference ?? null,
  };
}

/** A serializer's answer with its members in the representation's order. */
export function inShapeOrder<S extends Fields>(shape: { fields: S }, values: ObjectOf<S>): ObjectOf<S> {
  return Object.fromEntries(Object.keys(shape.fields).map((key) => [key, (values as Record<string, unknown>)[key]])) as ObjectOf<S>;
}

/** The members a family adds to a plan, at the given places. */
interface PlanSlots<D extends Fields, P extends Fields, R extends Fields> {
  /** after description */
  described?: D;
  /** after publish_until */
  published?: P;
  /** after external_reference */
  referenced?: R;
}

/** A plan's representation: id, administration, name, description, the publishing window, external reference, stamps. */
export function planShape<D extends Fields = {}, P extends Fields = {}, R extends Fields = {}>(name: string, slots: PlanSlots<D, P, R>) {
  return representation(name, {
    id: t.string(), admin_id: t.string(), name: t.string(), description: t.nullable(t.string()), ...(slots.described ?? {} as D),
    publish_from: t.nullable(t.timestamp()), publish_until: t.nullable(t.timestamp()), ...(slots.published ?? {} as P),
    external_reference: t.nullable(t.string()), ...(slots.referenced ?? {} as R),
    created_at: t.timestamp(), updated_at: t.timestamp(),
  });
}

/** The deprecated names of a plan's publishing window, still answered where the spec lists them (reimbursement and CPO subscription plans). */
export const DEPRECATED_WINDOW = { valid_from: t.nullable(t.timestamp()), valid_until: t.nullable(t.timestamp()) };

export function deprecatedWindowValues(p: { publishFrom?: Date | null; publishUntil?: Date | null }) {
  return { valid_from: iso(p.publishFrom), valid_until: iso(p.publishUntil) };
}

/** The values every plan answers. */
export function planValues(p: {
  id: string; admin: { id: string }; name: string; description?: string | null; publishFrom?: Date | null; publishUntil?: Date | null;
  externalReference?: string | null; createdAt: Date; updatedAt: Date;
}) {
  return {
    id: p.id, admin_id: p.admin.id, name: p.name, description: p.description ?? null, publish_from: iso(p.publishFrom), publish_until: iso(p.publishUntil),
    external_reference: p.externalReference ?? null, created_at: iso(p.createdAt), updated_at: iso(p.updatedAt),
  };
}
