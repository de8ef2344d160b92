import * as yup from 'yup';
import { getRoamingPartner, roamingPartnerList, type RoamingPartnerData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingPartner, updateRoamingPartner, type PartnerFields } from '../../src/roaming/save-roaming-partner.service.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { countryCode, email, externalRef, iso, text } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { roamingAgreementShape, serializeRoamingAgreement } from '../roaming/roaming-agreement.routes.ts';

export const roamingPartnerShape = representation('RoamingPartner', {
  id: t.string(),
  name: t.string(),
  country: t.string(),
  cpo_ids: t.array(t.string('A party id, normalized: `NL*TDR` and `NL-TDR` are stored `NLTDR`.')),
  msp_ids: t.array(t.string()),
  billing_email: t.nullable(t.string()),
  vat_number: t.nullable(t.string('Its VAT number, country code first (`BE0123456789`): the buyer\'s VAT identifier (BT-48) on its documents; a reverse-charge box needs it.')),
  external_reference: t.nullable(t.string()),
  roaming_agreements: t.array(roamingAgreementShape),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeRoamingPartner(partner: RoamingPartnerData): Infer<typeof roamingPartnerShape> {
  return {
    id: partner.id,
    name: partner.name,
    country: partner.country,
    cpo_ids: partner.cpoIds,
    msp_ids: partner.mspIds,
    billing_email: partner.billingEmail ?? null,
    vat_number: partner.vatNumber ?? null,
    external_reference: partner.externalReference ?? null,
    roaming_agreements: partner.roamingAgreements.map(serializeRoamingAgreement),
    created_at: iso(partner.createdAt),
    updated_at: iso(partner.updatedAt),
  };
}

const partyIds = () => yup.array(text(16).defined()).max(100, '${path} holds at most ${max} party ids');

const partnerBody = yup.object({
  name: text().nullable(),
  country: countryCode().nullable(),
  cpo_ids: partyIds().nullable(),
  msp_ids: partyIds().nullable(),
  billing_email: email().nullable(),
  vat_number: text().nullable(),
  external_reference: externalRef().nullable(),
});
const PARTNER: FieldMapping = {
  name: 'name', country: 'country', cpo_ids: 'cpoIds', msp_ids: 'mspIds', billing_email: 'billingEmail', vat_number: 'vatNumber', external_reference: 'externalReference',
};

export const roamingPartnerRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/roaming-partner', tag: 'Roaming', summary: 'List roaming partners', paged: true, createdGt: true,
    response: roamingPartnerShape, description: 'Each partner with its roaming agreements (defunct ones included).',
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      list: roamingPartnerList(em), rawQuery, path: '/main/v1/roaming-partner', createdGt: true, serialize: serializeRoamingPartner,
    }),
  }),
  defineRoute({
    method: 'post', path: '/roaming-partner', graphql: 'createRoamingPartner', tag: 'Roaming', summary: 'Create a roaming partner', extension: true, response: roamingPartnerShape,
    description: 'Party ids are normalized (`NL-TDR` = `NLTDR` = `NL*TDR`); an id of another partner is 400 `duplicate`. Roaming setup serves every administration: only a credential without an administration limit may change it (403 `forbidden` otherwise).',
    body: partnerBody,
    handler: async ({ em, body }) => serializeRoamingPartner(await createRoamingPartner(em, patchFrom(body, PARTNER) as Patch<PartnerFields>)),
  }),
  defineRoute({
    method: 'get', path: '/roaming-partner/:id', tag: 'Roaming', summary: 'Get a roaming partner', extension: true, response: roamingPartnerShape,
    handler: async ({ em, params }) => serializeRoamingPartner(await getRoamingPartner(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/roaming-partner/:id', graphql: 'updateRoamingPartner', tag: 'Roaming', summary: 'Merge-update a roaming partner', extension: true, body: partnerBody,
    response: roamingPartnerShape,
    handler: async ({ em, params, body }) => serializeRoamingPartner(await updateRoamingPartner(em, params.id, patchFrom(body, PARTNER) as Patch<PartnerFields>)),
  }),
];
