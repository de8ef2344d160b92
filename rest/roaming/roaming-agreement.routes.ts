import * as yup from 'yup';
import { VAT_KINDS } from '../../src/pricing/vat-rate.entity.ts';
import { AGREEMENT_ROLES } from '../../src/roaming/roaming-agreement.entity.ts';
import { getRoamingAgreement, roamingAgreementList, type RoamingAgreementData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingAgreement, updateRoamingAgreement, type AgreementFields } from '../../src/roaming/save-roaming-agreement.service.ts';
import { externalRef, iso, isoDate, oneOf, text, timestamp, uuid } from '../../src/platform/input-schemas.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Roaming';

export const roamingAgreementShape = representation('RoamingAgreement', {
  id: t.string(),
  connection_id: t.string(),
  partner_id: t.string(),
  role: t.string('`msp`: we are the MSP and the partner the CPO; `cpo`: we are the CPO and the partner the MSP.'),
  valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  rate_plan_id: t.nullable(t.string()),
  vat_kind: t.string(),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeRoamingAgreement(a: RoamingAgreementData): Infer<typeof roamingAgreementShape> {
  return {
    id: a.id, connection_id: a.connection.id, partner_id: a.partner.id, role: a.role, valid_from: iso(a.validFrom), valid_until: iso(a.validUntil),
    defunct: a.defunct, rate_plan_id: a.ratePlanId ?? null, vat_kind: a.vatKind, external_reference: a.externalReference ?? null,
    created_at: iso(a.createdAt), updated_at: iso(a.updatedAt),
  };
}

const agreementBody = yup.object({
  role: oneOf(AGREEMENT_ROLES).nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  defunct: yup.boolean().nullable(),
  rate_plan_id: uuid().nullable(),
  vat_kind: oneOf(VAT_KINDS).nullable(),
  external_reference: externalRef().nullable(),
});
const AGREEMENT: FieldMapping = {
  role: 'role', valid_from: { to: 'validFrom', convert: isoDate }, valid_until: { to: 'validUntil', convert: isoDate }, defunct: 'defunct',
  rate_plan_id: 'ratePlanId', vat_kind: 'vatKind', external_reference: 'externalReference',
};

export const roamingAgreementRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/roaming-agreement', tag: TAG, summary: 'List roaming agreements', extension: true, paged: true, response: roamingAgreementShape,
    description: 'Filters (AND): connection_id, partner_id.',
    query: yup.object({ connection_id: uuid(), partner_id: uuid() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: roamingAgreementList(em, { connectionId: query.connection_id, partnerId: query.partner_id }), rawQuery, path: '/main/v1/roaming-agreement',
      serialize: serializeRoamingAgreement,
    }),
  }),
  defineRoute({
    method: 'post', path: '/roaming-agreement', graphql: 'createRoamingAgreement', tag: TAG, summary: 'Create a roaming agreement', extension: true, response: roamingAgreementShape,
    description: 'Only on a locally owned connection, with its partner (partner_id may be left out). Validity is [valid_from, valid_until). Roaming setup serves every administration: only a credential without an administration limit may change it (403 `forbidden` otherwise).',
    body: agreementBody.shape({ connection_id: uuid().defined('${path} is required'), partner_id: uuid().nullable() }),
    handler: async ({ em, body }) => serializeRoamingAgreement(await createRoamingAgreement(em, {
      ...(patchFrom(body, AGREEMENT) as Patch<AgreementFields>), connectionId: body.connection_id, partnerId: body.partner_id,
    })),
  }),
  defineRoute({
    method: 'get', path: '/roaming-agreement/:id', tag: TAG, summary: 'Get a roaming agreement', extension: true, response: roamingAgreementShape,
    handler: async ({ em, params }) => serializeRoamingAgreement(await getRoamingAgreement(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/roaming-agreement/:id', graphql: 'updateRoamingAgreement', tag: TAG, summary: 'Merge-update a roaming agreement', extension: true, body: agreementBody,
    response: roamingAgreementShape,
    handler: async ({ em, params, body }) => serializeRoamingAgreement(await updateRoamingAgreement(em, params.id,
      patchFrom(body, AGREEMENT) as Patch<AgreementFields>)),
  }),
];
