import * as yup from 'yup';
import { endUserSiteList, type EndUserSiteData } from '../../src/end-users/end-user.queries.ts';
import { createSite } from '../../src/end-users/end-user-site.service.ts';
import { registerEndUser } from '../../src/end-users/register-end-user.service.ts';
import type { EndUserPatch } from '../../src/end-users/save-end-user.service.ts';
import { externalRef, iso, text } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { END_USER_MAPPING, endUserBody, endUserShape, serializeEndUser, UNIQUENESS } from './end-user.routes.ts';

const TAG = 'End users';

export const endUserSiteShape = representation('EndUserSite', {
  id: t.string(),
  admin_id: t.string(),
  name: t.string(),
  is_default: t.boolean(),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeSite(s: EndUserSiteData): Infer<typeof endUserSiteShape> {
  return {
    id: s.id, admin_id: s.admin.id, name: s.name, is_default: s.isDefault, external_reference: s.externalReference ?? null,
    created_at: iso(s.createdAt), updated_at: iso(s.updatedAt),
  };
}

const siteBody = yup.object({
  admin_id: text(64).required('${path} is required'),
  name: text(255).nullable(),
  external_reference: externalRef().nullable(),
});

const { admin_id: _admin, site_id: _site, ...registerFields } = endUserBody.fields;
const registerBody = yup.object(registerFields);

export const endUserSiteRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/end-user-site', tag: TAG, summary: 'List end-user sites', paged: true, response: endUserSiteShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, { list: endUserSiteList(em), rawQuery, path: '/main/v1/end-user-site', serialize: serializeSite }),
  }),
  defineRoute({
    method: 'post', path: '/end-user-site', graphql: 'createEndUserSite', tag: TAG, summary: 'Create an end-user site', extension: true, body: siteBody, response: endUserSiteShape,
    description: 'An App credential belongs to one site (`credential create --site <id>` of the CLI); POST /enduser/register creates end users there.',
    handler: async ({ em, body }) => serializeSite(await createSite(em, { adminId: body.admin_id, name: body.name, externalReference: body.external_reference })),
  }),
  defineRoute({
    method: 'post', path: '/enduser/register', graphql: 'registerEndUser', tag: TAG, api: 'app', summary: 'Register an end user in the App credential\'s site',
    body: registerBody, response: endUserShape,
    description: `App API. username is required; the end user belongs to the credential's site and its administration. ${UNIQUENESS}`,
    handler: async ({ em, actor, body }) => serializeEndUser(await registerEndUser(em, actor, patchFrom(body, END_USER_MAPPING) as EndUserPatch)),
  }),
];
