import * as yup from 'yup';
import { roamingPartnerList, roamingPartnersByIds, type RoamingPartnerData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingPartner, updateRoamingPartner, type PartnerFields } from '../../src/roaming/save-roaming-partner.service.ts';
import { countryCode, email, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import type { GraphQLContext } from '../context.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { RoamingAgreement } from './roaming-agreement.ts';

export const RoamingPartner = builder.loadableNode('RoamingPartner', {
  description: 'A party that roams with us: a CPO, an MSP or both (REST: /roaming-partner/{id}).',
  id: { resolve: (p) => p.id },
  cacheResolved: (p) => p.id,
  isTypeOf: (value) => isDataOf(value, 'RoamingPartner'),
  load: (ids: string[], context: GraphQLContext) => roamingPartnersByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    name: t.exposeString('name'),
    country: t.exposeString('country'),
    cpoIds: t.stringList({ description: 'Party ids, normalized (NL*TDR is NLTDR).', resolve: (p) => p.cpoIds }),
    mspIds: t.stringList({ resolve: (p) => p.mspIds }),
    billingEmail: t.string({ nullable: true, resolve: (p) => p.billingEmail ?? null }),
    vatNumber: t.string({ nullable: true, description: 'Its VAT number, country code first: the buyer\'s VAT identifier (BT-48) on its documents; a reverse-charge box needs it.', resolve: (p) => p.vatNumber ?? null }),
    externalReference: t.string({ nullable: true, resolve: (p) => p.externalReference ?? null }),
    roamingAgreements: t.field({
      type: [RoamingAgreement], description: 'Its agreements, defunct ones included, by id.',
      resolve: (p) => p.roamingAgreements,
    }),
    createdAt: t.field({ type: DateTime, resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (p) => p.updatedAt }),
  }),
});

const RoamingPartnerConnection = builder.connectionObject({ type: RoamingPartner, name: 'RoamingPartnerConnection' }, { name: 'RoamingPartnerEdge' });

builder.queryFields((t) => ({
  roamingPartners: t.connection({
    type: RoamingPartner, description: 'Roaming partners by id (REST: GET /roaming-partner).',
    resolve: (_root, args, context) => listConnection<RoamingPartnerData>(roamingPartnerList(context.em), args),
  }, RoamingPartnerConnection),
}));

const RoamingPartnerInput = builder.inputType('RoamingPartnerInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs name and country.',
  fields: (t) => ({
    name: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code.' }),
    cpoIds: t.stringList({ description: 'Party ids (NL*TDR, NL-TDR and NLTDR are one id), at most 100; replaced as a whole. An id of another partner is duplicate.' }),
    mspIds: t.stringList({ description: 'Like cpoIds.' }),
    billingEmail: t.string(),
    vatNumber: t.string({ description: 'Country code first (BE0123456789; EN 16931 BR-CO-09); null clears it.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const partyIds = () => yup.array(text(16).defined()).max(100, '${path} holds at most ${max} party ids');
const partnerRules = yup.object({
  name: text().nullable(),
  country: countryCode().nullable(),
  cpoIds: partyIds().nullable(),
  mspIds: partyIds().nullable(),
  billingEmail: email().nullable(),
  vatNumber: text().nullable(),
  externalReference: externalRef().nullable(),
});

function partnerPatch(input: typeof RoamingPartnerInput.$inferInput): Patch<PartnerFields> {
  validate(partnerRules, input);
  return { ...input } as Patch<PartnerFields>;
}

builder.mutationFields((t) => ({
  createRoamingPartner: t.field({
    type: RoamingPartner, nullable: true, description: 'Creates a roaming partner (REST: POST /roaming-partner). Needs a credential without an administration limit.',
    args: { input: t.arg({ type: RoamingPartnerInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createRoamingPartner(em, partnerPatch(args.input))),
  }),
  updateRoamingPartner: t.field({
    type: RoamingPartner, nullable: true, description: 'Merge-updates a roaming partner (REST: POST /roaming-partner/{id}). Needs a credential without an administration limit.',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), input: t.arg({ type: RoamingPartnerInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateRoamingPartner(em, idArg(args.id, 'RoamingPartner'), partnerPatch(args.input))),
  }),
}));
