import * as yup from 'yup';
import { VAT_KINDS } from '../../src/pricing/vat-rate.entity.ts';
import { AGREEMENT_ROLES } from '../../src/roaming/roaming-agreement.entity.ts';
import { roamingAgreementList, roamingAgreementsByIds, type RoamingAgreementData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingAgreement, updateRoamingAgreement, type AgreementFields } from '../../src/roaming/save-roaming-agreement.service.ts';
import { externalRef, oneOf, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import type { GraphQLContext } from '../context.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

export const RoamingAgreement = builder.loadableNode('RoamingAgreement', {
  description: 'A roaming agreement over a locally owned connection, valid from validFrom until (excluding) validUntil (REST: /roaming-agreement/{id}).',
  id: { resolve: (a) => a.id },
  cacheResolved: (a) => a.id,
  isTypeOf: (value) => isDataOf(value, 'RoamingAgreement'),
  load: (ids: string[], context: GraphQLContext) => roamingAgreementsByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    connectionId: t.string({ resolve: (a) => a.connection.id }),
    partnerId: t.string({ resolve: (a) => a.partner.id }),
    role: t.string({ description: '`msp`: we are the MSP, the partner the CPO; `cpo`: we are the CPO, the partner the MSP.', resolve: (a) => a.role }),
    validFrom: t.field({ type: DateTime, resolve: (a) => a.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (a) => a.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    ratePlanId: t.string({ nullable: true, resolve: (a) => a.ratePlanId ?? null }),
    vatKind: t.string({ resolve: (a) => a.vatKind }),
    externalReference: t.string({ nullable: true, resolve: (a) => a.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (a) => a.updatedAt }),
  }),
});

const RoamingAgreementConnection = builder.connectionObject({ type: RoamingAgreement, name: 'RoamingAgreementConnection' }, { name: 'RoamingAgreementEdge' });

builder.queryFields((t) => ({
  roamingAgreements: t.connection({
    type: RoamingAgreement, description: 'Roaming agreements by id (REST: GET /roaming-agreement).',
    resolve: (_root, args, context) => listConnection<RoamingAgreementData>(roamingAgreementList(context.em), args),
  }, RoamingAgreementConnection),
}));

const ROLE = `One of ${AGREEMENT_ROLES.join(', ')}: \`msp\`: we are the MSP, the partner the CPO; \`cpo\`: we are the CPO, the partner the MSP.`;

/** The members both mutations merge. */
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
const agreementFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  role: t.string({ description: ROLE }),
  validFrom: t.field({ type: DateTime }),
  validUntil: t.field({ type: DateTime, description: 'Excluded; null: open-ended.' }),
  defunct: t.boolean({ description: 'true makes the agreement defunct, finally: a defunct agreement cannot change.' }),
  ratePlanId: t.id({ description: 'Global ID or REST id of a rate plan (any administration\'s: the setup is shared).' }),
  vatKind: t.string({ description: `One of ${VAT_KINDS.join(', ')}; defaults to standard.` }),
  externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
});

const CreateRoamingAgreementInput = builder.inputType('CreateRoamingAgreementInput', {
  description: 'A new agreement on a locally owned connection, with its partner.',
  fields: (t) => ({
    connectionId: t.id({ required: true, description: 'Global ID or REST id of a locally owned roaming connection.' }),
    partnerId: t.id({ description: 'Optional: always the connection\'s partner; another one is invalid_input.' }),
    ...agreementFields(t),
    role: t.string({ required: true, description: ROLE }),
    validFrom: t.field({ type: DateTime, required: true }),
  }),
});

const RoamingAgreementInput = builder.inputType('RoamingAgreementInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it (role, validFrom, vatKind and defunct cannot be cleared).',
  fields: (t) => agreementFields(t),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const agreementRules = yup.object({
  role: oneOf(AGREEMENT_ROLES).nullable(),
  ratePlanId: text(64).nullable(),
  vatKind: oneOf(VAT_KINDS).nullable(),
  externalReference: externalRef().nullable(),
});

function agreementPatch(input: typeof RoamingAgreementInput.$inferInput): Patch<AgreementFields> {
  const patch = { ...input } as Patch<AgreementFields>;
  if (typeof input.ratePlanId === 'string' || typeof input.ratePlanId === 'number') patch.ratePlanId = idArg(input.ratePlanId, 'RatePlan');
  validate(agreementRules, patch);
  return patch;
}

builder.mutationFields((t) => ({
  createRoamingAgreement: t.field({
    type: RoamingAgreement, nullable: true, description: 'Creates a roaming agreement; live agreements of one connection and role may not overlap '
      + '(REST: POST /roaming-agreement). Needs a credential without an administration limit.',
    args: { input: t.arg({ type: CreateRoamingAgreementInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { connectionId, partnerId, ...fields } = args.input;
      return createRoamingAgreement(em, {
        ...agreementPatch(fields), connectionId: idArg(connectionId, 'RoamingConnection'),
        partnerId: partnerId === undefined || partnerId === null ? partnerId : idArg(partnerId, 'RoamingPartner'),
      });
    }),
  }),
  updateRoamingAgreement: t.field({
    type: RoamingAgreement, nullable: true, description: 'Merge-updates a roaming agreement; defunct: true ends it for good (REST: POST /roaming-agreement/{id}). Needs a credential without an administration limit.',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), input: t.arg({ type: RoamingAgreementInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) =>
      updateRoamingAgreement(em, idArg(args.id, 'RoamingAgreement'), agreementPatch(args.input))),
  }),
}));
