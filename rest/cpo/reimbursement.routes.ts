import * as yup from 'yup';
import { isUuid } from '../../src/platform/ids.ts';
import {
  arrangementDetails, getArrangementDetail, reimbursementLinkList, type ArrangementData, type ArrangementDetail, type ArrangementLinkData,
  type ReimbursementLinkData,
} from '../../src/cpo/reimbursement.queries.ts';
import {
  createArrangement, createLink, markArrangementDefunct, markLinkDefunct, updateArrangement, updateLink,
  type ArrangementFields, type LinkFields,
} from '../../src/cpo/save-reimbursement-arrangement.service.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';
import type { Em } from '../../src/platform/orm.ts';
import { adminMember, CONTRACT, contractBody, contractShape, contractValues, defunctBody, inShapeOrder, LINK, linkBody, linkShape, linkValues } from '../rails/contracts.ts';
import { patchFrom } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso, isoDate, text } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'CPO reimbursement';

/** A link as its arrangement lists it: the members an embedded token link of an MSP subscription answers, as an EVSE link has them. */
export const arrangementLinkShape = representation('ReimbursementArrangementLink', {
  id: t.string(),
  evse_uid: t.string(),
  valid_from: t.nullable(t.timestamp()),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
});

export const arrangementShape = contractShape('ReimbursementArrangement', {
  plan: { plan_id: t.nullable(t.string()) }, late: { links: t.array(arrangementLinkShape) },
});

export const reimbursementLinkShape = linkShape('ReimbursementLink', { head: { ...adminMember, arrangement_id: t.string(), evse_uid: t.string() } });

function serializeArrangementLink(l: ArrangementLinkData): Infer<typeof arrangementLinkShape> {
  return { id: l.id, evse_uid: l.evseUid, valid_from: iso(l.validFrom), valid_until: iso(l.validUntil), defunct: l.defunct };
}

export function serializeArrangement(a: ArrangementDetail): Infer<typeof arrangementShape> {
  return inShapeOrder(arrangementShape, { ...contractValues(a), plan_id: a.plan?.id ?? null, links: a.links.map(serializeArrangementLink) });
}

/** The answer of a write: the arrangement as it now is, with its EVSE links. */
export async function presentArrangement(em: Em, arrangement: ArrangementData) {
  const [detail] = await arrangementDetails(em, [arrangement.id]);
  return serializeArrangement(detail);
}

const LINKS = 'links: every EVSE link of the arrangement, defunct ones too, by id (each with the id, evse_uid, valid_from, valid_until '
  + 'and defunct of GET /cpo-reimbursement-link).';

export function serializeLink(l: ReimbursementLinkData): Infer<typeof reimbursementLinkShape> {
  return inShapeOrder(reimbursementLinkShape, { ...linkValues(l), arrangement_id: l.arrangement.id, evse_uid: l.evseUid });
}

const arrangementBody = contractBody;
const ARRANGEMENT = CONTRACT;

const arrangementUpdate = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateArrangement(em, id, patchFrom(body, ARRANGEMENT, mode) as Patch<ArrangementFields>).then((a) => presentArrangement(em, a));
const linkUpdate = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateLink(em, id, patchFrom(body, LINK, mode) as Patch<LinkFields>).then(serializeLink);

export const reimbursementRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-arrangement', tag: TAG, graphql: 'createReimbursementArrangement', summary: 'Create a reimbursement arrangement', extension: true, response: arrangementShape,
    body: arrangementBody.shape({ admin_id: text(64).defined('${path} is required'), customer_id: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => presentArrangement(em, await createArrangement(em, {
      ...(patchFrom(body, ARRANGEMENT) as Patch<ArrangementFields>), adminId: body.admin_id, customerId: body.customer_id,
    })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-reimbursement-arrangement/:id', tag: TAG, summary: 'Get a reimbursement arrangement with its EVSE links', extension: true,
    response: arrangementShape, description: LINKS,
    handler: async ({ em, params }) => serializeArrangement(await getArrangementDetail(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-arrangement/:id', tag: TAG, graphql: 'updateReimbursementArrangement', summary: 'Merge-update a reimbursement arrangement', body: arrangementBody,
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
    method: 'put', path: '/cpo-reimbursement-arrangement/:id/defunct', tag: TAG, graphql: 'markReimbursementArrangementDefunct', summary: 'Mark an arrangement defunct (its links too)', response: arrangementShape,
    body: defunctBody, bodyOptional: true,
    handler: async ({ em, params, body }) => presentArrangement(em, await markArrangementDefunct(em, params.id, isoDate(body.external_updated_at))),
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
    method: 'post', path: '/cpo-reimbursement-link', tag: TAG, graphql: 'createReimbursementLink', summary: 'Link an EVSE to a reimbursement arrangement', extension: true, response: reimbursementLinkShape,
    description: 'valid_from null defers to the arrangement; validity is [valid_from, valid_until).',
    body: linkBody.shape({ arrangement_id: text(64).defined('${path} is required'), evse_uid: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serializeLink(await createLink(em, {
      ...(patchFrom(body, LINK) as Patch<LinkFields>), arrangementId: body.arrangement_id, evseUid: body.evse_uid,
    })),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-link/:id', tag: TAG, graphql: 'updateReimbursementLink', summary: 'Merge-update a reimbursement link', body: linkBody, response: reimbursementLinkShape,
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
    method: 'put', path: '/cpo-reimbursement-link/:id/defunct', tag: TAG, graphql: 'markReimbursementLinkDefunct', summary: 'Mark a reimbursement link defunct', body: defunctBody, bodyOptional: true,
    response: reimbursementLinkShape,
    handler: async ({ em, params, body }) => serializeLink(await markLinkDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
];
