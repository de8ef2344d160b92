import { reimbursementLinkList } from '../../src/cpo/evse.queries.ts';
import * as yup from 'yup';
import { isUuid } from '../../src/platform/ids.ts';
import type { ReimbursementArrangement } from '../../src/cpo/reimbursement-arrangement.entity.ts';
import type { CustomFields } from '../../src/parties/customer.entity.ts';
import { ReimbursementLink } from '../../src/cpo/reimbursement-link.entity.ts';
import {
  createArrangement, createLink, getArrangement, getLink, markArrangementDefunct, markLinkDefunct, updateArrangement, updateLink,
  type ArrangementFields, type LinkFields,
} from '../../src/cpo/save-reimbursement-arrangement.service.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';
import type { Em } from '../../src/platform/orm.ts';
import { defunctBody, LINK, linkBody } from './contract-bodies.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { customFields, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'CPO reimbursement';

export const arrangementShape = representation('ReimbursementArrangement', {
  id: t.string(),
  admin_id: t.string(),
  customer_id: t.string(),
  plan_id: t.nullable(t.string()),
  buyer_reference: t.nullable(t.string()),
  valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  custom_fields: t.customFields(),
  external_reference: t.nullable(t.string()),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export const reimbursementLinkShape = representation('ReimbursementLink', {
  id: t.string(),
  admin_id: t.string(),
  arrangement_id: t.string(),
  evse_uid: t.string(),
  valid_from: t.nullable(t.timestamp()),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeArrangement(a: ReimbursementArrangement): Infer<typeof arrangementShape> {
  return {
    id: a.id, admin_id: a.admin.id, customer_id: a.customer.id, plan_id: a.plan?.id ?? null, buyer_reference: a.buyerReference ?? null,
    valid_from: iso(a.validFrom), valid_until: iso(a.validUntil), defunct: a.defunct,
    custom_fields: (a.customFields ?? {}) as CustomFields, // checked by customFields() on input
    external_reference: a.externalReference ?? null, external_updated_at: iso(a.externalUpdatedAt), created_at: iso(a.createdAt), updated_at: iso(a.updatedAt),
  };
}

export function serializeLink(l: ReimbursementLink): Infer<typeof reimbursementLinkShape> {
  return {
    id: l.id, admin_id: l.admin.id, arrangement_id: l.arrangement.id, evse_uid: l.evse.evseUid, valid_from: iso(l.validFrom),
    valid_until: iso(l.validUntil), defunct: l.defunct, external_updated_at: iso(l.externalUpdatedAt), created_at: iso(l.createdAt), updated_at: iso(l.updatedAt),
  };
}

const arrangementBody = yup.object({
  buyer_reference: text().nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  custom_fields: customFields().nullable(),
  external_reference: text().nullable(),
  external_updated_at: timestamp().nullable(),
});
const ARRANGEMENT: FieldMapping = {
  buyer_reference: 'buyerReference', valid_from: { to: 'validFrom', convert: isoDate }, valid_until: { to: 'validUntil', convert: isoDate },
  custom_fields: 'customFields', external_reference: 'externalReference', external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const arrangementUpdate = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateArrangement(em, id, patchFrom(body, ARRANGEMENT, mode) as Patch<ArrangementFields>).then(serializeArrangement);
const linkUpdate = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateLink(em, id, patchFrom(body, LINK, mode) as Patch<LinkFields>).then(serializeLink);

export const reimbursementRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-arrangement', tag: TAG, summary: 'Create a reimbursement arrangement', extension: true, response: arrangementShape,
    body: arrangementBody.shape({ admin_id: text(64).defined('${path} is required'), customer_id: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serializeArrangement(await createArrangement(em, {
      ...(patchFrom(body, ARRANGEMENT) as Patch<ArrangementFields>), adminId: body.admin_id, customerId: body.customer_id,
    })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-reimbursement-arrangement/:id', tag: TAG, summary: 'Get a reimbursement arrangement', extension: true, response: arrangementShape,
    handler: async ({ em, params }) => serializeArrangement(await getArrangement(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-arrangement/:id', tag: TAG, summary: 'Merge-update a reimbursement arrangement', body: arrangementBody,
    response: arrangementShape,
    handler: ({ em, params, body }) => arrangementUpdate(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-reimbursement-arrangement/:id', tag: TAG, summary: 'Replace a reimbursement arrangement (omitted fields are reset)',
    deprecated: true, body: arrangementBody, response: arrangementShape,
    handler: ({ em, params, body }) => arrangementUpdate(em, params.id, body, 'replace'),
  }),
  ...singleFieldRoutes({
    path: '/cpo-reimbursement-arrangement/:id', tag: TAG, response: arrangementShape,
    fields: { valid_from: {}, valid_until: { delete: true } },
    update: ({ em, params }, patch) => arrangementUpdate(em, params.id, patch, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-reimbursement-arrangement/:id/defunct', tag: TAG, summary: 'Mark an arrangement defunct (its links too)', response: arrangementShape,
    body: defunctBody, bodyOptional: true,
    handler: async ({ em, params, body }) => serializeArrangement(await markArrangementDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  defineRoute({
    method: 'get', path: '/cpo-reimbursement-link', tag: TAG, summary: 'List reimbursement links', paged: true, response: reimbursementLinkShape,
    description: 'Filters (AND): arrangement_id, evse_uid.',
    query: yup.object({
      arrangement_id: yup.string().test('uuid', '${path} must be an id', (v) => v === undefined || isUuid(v)), evse_uid: yup.string().max(64),
    }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: reimbursementLinkList(em, { arrangementId: query.arrangement_id, evseUid: query.evse_uid || undefined }), rawQuery, path: '/main/v1/cpo-reimbursement-link', serialize: serializeLink,
    }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-link', tag: TAG, summary: 'Link an EVSE to a reimbursement arrangement', extension: true, response: reimbursementLinkShape,
    description: 'valid_from null defers to the arrangement; validity is [valid_from, valid_until).',
    body: linkBody.shape({ arrangement_id: text(64).defined('${path} is required'), evse_uid: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serializeLink(await createLink(em, {
      ...(patchFrom(body, LINK) as Patch<LinkFields>), arrangementId: body.arrangement_id, evseUid: body.evse_uid,
    })),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-link/:id', tag: TAG, summary: 'Merge-update a reimbursement link', body: linkBody, response: reimbursementLinkShape,
    handler: ({ em, params, body }) => linkUpdate(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-reimbursement-link/:id', tag: TAG, summary: 'Replace a reimbursement link (omitted fields are reset)', deprecated: true,
    body: linkBody, response: reimbursementLinkShape,
    handler: ({ em, params, body }) => linkUpdate(em, params.id, body, 'replace'),
  }),
  ...singleFieldRoutes({
    path: '/cpo-reimbursement-link/:id', tag: TAG, response: reimbursementLinkShape,
    fields: { valid_from: { delete: true }, valid_until: { delete: true } },
    update: ({ em, params }, patch) => linkUpdate(em, params.id, patch, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-reimbursement-link/:id/defunct', tag: TAG, summary: 'Mark a reimbursement link defunct', body: defunctBody, bodyOptional: true,
    response: reimbursementLinkShape,
    handler: async ({ em, params, body }) => serializeLink(await markLinkDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
];
