import { refuseBlank } from '../platform/blank-text.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import type { Patch } from '../platform/merge-patch.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import type { Em } from '../platform/orm.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { NamedRecord } from '../platform/resource-ref.ts';
import { Administration } from './administration.entity.ts';
import type { Customer, CustomFields, ENTITY_TYPES, REIMBURSEMENT_VAT, ROLLUP_GROUP_BY } from './customer.entity.ts';

export interface CustomerFields {
  adminId: string;
  name: string;
  country: string;
  entityType: (typeof ENTITY_TYPES)[number];
  externalReference: string;
  companyRegNum: string;
  localeId: string;
  billingEmail: string;
  billingPhone: string;
  reimbursementVat: (typeof REIMBURSEMENT_VAT)[number];
  billingRollupGroupBy: (typeof ROLLUP_GROUP_BY)[number];
  customFields: Record<string, string | number | boolean | null>;
  externalUpdatedAt: Date;
}

export type CustomerPatch = Patch<CustomerFields>;

const REQUIRED: (keyof CustomerFields)[] = ['name', 'country'];
const PARAM: Record<string, FieldPath> = { name: ['name'], country: ['country'], adminId: ['admin_id'] };

/**
 * Loads the administration a new record goes into; one the caller cannot see does not exist.
 * `path` null: the administration is named in the URL path (a failure names no member).
 */
export async function visibleAdministration(em: Em, adminId: string | null | undefined, path: FieldPath | null = ['admin_id']): Promise<Administration> {
  if (!adminId) throw new InvalidInputError('admin_id is required', { path: path ?? undefined });
  const admin = await em.findOne(Administration, { id: adminId });
  if (!admin) throw new NotFoundError('administration', { path: path ?? undefined });
  return admin;
}

/** An `admin_id` member, for assertNamedRecordsVisible where it is ignored (on update). */
export function administrationNamed(adminId: string | null | undefined, path: FieldPath = ['admin_id']): NamedRecord {
  return { path, what: 'administration', value: adminId, find: (em, id) => em.findOne(Administration, { id }) };
}

/** Applies a merge patch to a customer (immutable admin_id is ignored here). */
export function applyCustomerPatch(customer: Customer, patch: CustomerPatch): void {
  for (const field of REQUIRED) {
    if (patch[field] === null) throw new InvalidInputError(`${String(field)} cannot be cleared`, { path: PARAM[field] });
  }
  // The buyer's name on every document (EN 16931 BR-07).
  refuseBlank(patch.name, ['name']);
  if (patch.entityType === null) patch.entityType = 'person';
  if (patch.reimbursementVat === null) patch.reimbursementVat = 'Unknown';
  const { adminId: _ignored, customFields, ...rest } = patch;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (customer as unknown as Record<string, unknown>)[key] = value;
  }
  if (customFields !== undefined) {
    customer.customFields = (customFields === null ? {} : mergeCustomFields(customer.customFields, customFields)) as CustomFields;
  }
  if (customer.country) customer.country = customer.country.toUpperCase();
}

/** decisions.md: updates older than the last observed external_updated_at are ignored. */
export function isStaleUpdate(current: Date | null | undefined, incoming: Date | null | undefined): boolean {
  return Boolean(current && incoming && incoming.getTime() < current.getTime());
}

const missingCreateFields = (patch: CustomerPatch) => REQUIRED.filter((field) => patch[field] === undefined || patch[field] === null);

export const hasCreateFields = (patch: CustomerPatch): boolean => missingCreateFields(patch).length === 0;

export function requireCreateFields(patch: CustomerPatch): void {
  const missing = missingCreateFields(patch);
  if (missing.length) {
    throw DomainError.of('validation_failed', missing.map((field) => ({ path: PARAM[field], message: `${String(field)} is required` })));
  }
}
