// The members of a contract and of an EVSE link in GraphQL inputs (CPO subscriptions and their EVSE
// links, reimbursement arrangements and their links): the fields, what GraphQL types cannot say (the
// same rules as the REST bodies of rest/rails/contracts.ts) and the merge patch the services take.
// The members are named as the services name them, so the input is the patch.
import * as yup from 'yup';
import type { ContractFields, LinkFields } from '../src/contracts/contract-service.ts';
import { customFields, externalRef, text } from '../src/platform/input-schemas.ts';
import { validate } from '../src/platform/input-validation.ts';
import type { Patch } from '../src/platform/merge-patch.ts';
import type { builder } from './builder.ts';
import { DateTime } from './types/date-time.ts';
import { JsonScalar } from './types/json.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>;

const EXTERNAL_UPDATED_AT = 'When the record last changed in the system it comes from (stored as given).';

/** A contract's own members (its parties are the family's). */
export const contractInputFields = (t: InputFields) => ({
  buyerReference: t.string(),
  validFrom: t.field({ type: DateTime, description: 'Cannot be cleared.' }),
  validUntil: t.field({ type: DateTime, description: 'Excluded; null: open-ended.' }),
  customFields: t.field({ type: JsonScalar, description: 'A flat object of strings, numbers and booleans, merged into the stored one; a null member removes it.' }),
  externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
  externalUpdatedAt: t.field({ type: DateTime, description: EXTERNAL_UPDATED_AT }),
});

/** A link's members: its bounds (validFrom null defers to the contract's) and externalUpdatedAt. */
export const linkInputFields = (t: InputFields) => ({
  validFrom: t.field({ type: DateTime, description: "null: the link starts with its contract." }),
  validUntil: t.field({ type: DateTime, description: 'Excluded; null: open-ended.' }),
  externalUpdatedAt: t.field({ type: DateTime, description: EXTERNAL_UPDATED_AT }),
});

const contractRules = yup.object({ buyerReference: text().nullable(), customFields: customFields().nullable(), externalReference: externalRef().nullable() });

interface ContractInput {
  buyerReference?: string | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  customFields?: unknown;
  externalReference?: string | null;
  externalUpdatedAt?: Date | null;
}

/** The merge patch of a contract input: absent members are absent, null clears. */
export function contractPatch(input: ContractInput): Patch<ContractFields> {
  validate(contractRules, { buyerReference: input.buyerReference, customFields: input.customFields, externalReference: input.externalReference });
  const patch: Record<string, unknown> = {};
  for (const member of ['buyerReference', 'validFrom', 'validUntil', 'customFields', 'externalReference', 'externalUpdatedAt'] as const) {
    if (input[member] !== undefined) patch[member] = input[member];
  }
  return patch as Patch<ContractFields>;
}

/** The merge patch of a link input. */
export function linkPatch(input: { validFrom?: Date | null; validUntil?: Date | null; externalUpdatedAt?: Date | null }): Patch<LinkFields> {
  const patch: Record<string, unknown> = {};
  for (const member of ['validFrom', 'validUntil', 'externalUpdatedAt'] as const) {
    if (input[member] !== undefined) patch[member] = input[member];
  }
  return patch as Patch<LinkFields>;
}
