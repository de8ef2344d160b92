import * as yup from 'yup';
import type { CustomerPatch } from '../../src/parties/customer-input.ts';
import { BILLING_PHONE_MAX_LENGTH } from '../../src/parties/customer.entity.ts';
import { countryCode, customFields, email, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { BillingRollupGroupBy } from './billing-rollup-group-by.ts';
import { DateTime } from './date-time.ts';
import { EntityType } from './entity-type.ts';
import { JsonScalar } from './json.ts';
import { ReimbursementVat } from './reimbursement-vat.ts';

export const CustomerInput = builder.inputType('CustomerInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. '
    + 'Creating needs adminId, name and country.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Set on creation only; ignored on update, but one the caller cannot see is not_found.' }),
    name: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code.' }),
    entityType: t.field({ type: EntityType, description: 'Defaults to PERSON.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
    companyRegNum: t.string(),
    localeId: t.string(),
    billingEmail: t.string(),
    billingPhone: t.string({ description: 'Free text, at most 40 characters.' }),
    reimbursementVat: t.field({ type: ReimbursementVat, description: 'Defaults to UNKNOWN.' }),
    billingRollupGroupBy: t.field({ type: BillingRollupGroupBy }),
    customFields: t.field({ type: JsonScalar, description: 'A flat object of strings, numbers and booleans, merged into the stored one; a null member removes it.' }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  adminId: text(64).nullable(),
  name: text().nullable(),
  country: countryCode().nullable(),
  externalReference: externalRef().nullable(),
  companyRegNum: text().nullable(),
  localeId: text(35).nullable(),
  billingEmail: email().nullable(),
  billingPhone: text(BILLING_PHONE_MAX_LENGTH).nullable(),
  customFields: customFields().nullable(),
});

export function customerPatch(input: typeof CustomerInput.$inferInput): CustomerPatch {
  const patch = { ...input } as CustomerPatch;
  if (typeof input.adminId === 'string') patch.adminId = administrationKey(input.adminId);
  validate(rules, patch);
  return patch;
}
