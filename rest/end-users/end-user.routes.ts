import { endUserList, getEndUser, type EndUserData } from '../../src/end-users/end-user.queries.ts';
import * as yup from 'yup';
import { createEndUser, updateEndUser, type EndUserPatch } from '../../src/end-users/save-end-user.service.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { email, externalRef, iso, isoDate, nfcText, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'End users';

export const endUserShape = representation('EndUser', {
  id: t.string(),
  admin_id: t.string(),
  site_id: t.nullable(t.string('The end-user site; set on create (the administration\'s default site unless given).')),
  username: t.string(),
  email: t.nullable(t.string()),
  name: t.nullable(t.string()),
  locale_id: t.nullable(t.string()),
  external_reference: t.nullable(t.string()),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeEndUser(u: EndUserData): Infer<typeof endUserShape> {
  return {
    id: u.id,
    admin_id: u.admin.id,
    site_id: u.site?.id ?? null,
    username: u.username,
    email: u.email ?? null,
    name: u.name ?? null,
    locale_id: u.localeId ?? null,
    external_reference: u.externalReference ?? null,
    external_updated_at: iso(u.externalUpdatedAt),
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  };
}

export const endUserBody = yup.object({
  admin_id: text(64).nullable(),
  site_id: text(64).nullable(),
  username: nfcText().min(1, '${path} must not be empty').nullable(),
  email: email().min(1, '${path} must be an email address').nullable(),
  name: text().nullable(),
  locale_id: text(35).nullable(),
  external_reference: externalRef().nullable(),
  external_updated_at: timestamp().nullable(),
});

export const END_USER_MAPPING: FieldMapping = {
  admin_id: 'adminId',
  site_id: 'siteId',
  username: 'username',
  email: 'email',
  name: 'name',
  locale_id: 'localeId',
  external_reference: 'externalReference',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const patch = (body: Record<string, unknown>, mode: 'merge' | 'replace') => patchFrom(body, END_USER_MAPPING, mode) as EndUserPatch;

export const UNIQUENESS = 'username, email and external_reference are unique in the instance, compared case-insensitively '
  + '(400 duplicate); username and email must be Unicode NFC.';

export const endUserRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/end-user', tag: TAG, summary: 'List end users', paged: true, createdGt: true, response: endUserShape,
    query: yup.object({ admin_id: yup.string(), username: yup.string(), email: yup.string(), external_reference: yup.string() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: endUserList(em, { adminId: query.admin_id, username: query.username, email: query.email, externalReference: query.external_reference }),
      rawQuery, path: '/main/v1/end-user', createdGt: true, serialize: serializeEndUser,
    }),
  }),
  defineRoute({
    method: 'post', path: '/end-user', graphql: 'createEndUser', tag: TAG, summary: 'Create an end user', body: endUserBody, response: endUserShape,
    description: `admin_id and username are required; admin_id and site_id (default: the administration\'s default site) cannot change afterwards. ${UNIQUENESS}`,
    handler: async ({ em, body }) => serializeEndUser(await createEndUser(em, patch(body, 'merge'))),
  }),
  defineRoute({
    method: 'get', path: '/end-user/:id', tag: TAG, summary: 'Get an end user', response: endUserShape,
    handler: async ({ em, params }) => serializeEndUser(await getEndUser(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/end-user/:id', graphql: 'updateEndUser', tag: TAG, summary: 'Merge-update an end user', body: endUserBody, response: endUserShape,
    description: `admin_id is ignored. An update with an external_updated_at older than the stored one is ignored. ${UNIQUENESS}`,
    handler: async ({ em, body, params }) => serializeEndUser(await updateEndUser(em, params.id, patch(body, 'merge'))),
  }),
  defineRoute({
    method: 'put', path: '/end-user/:id', tag: TAG, summary: 'Replace an end user (omitted fields are reset)', deprecated: true,
    body: endUserBody, response: endUserShape,
    handler: async ({ em, body, params }) => serializeEndUser(await updateEndUser(em, params.id, patch(body, 'replace'))),
  }),
];
