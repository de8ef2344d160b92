import * as yup from 'yup';
import { CONNECTION_KINDS, ROAMING_PROTOCOLS } from '../../src/roaming/roaming-connection.entity.ts';
import { getRoamingConnection, roamingConnectionList, type RoamingConnectionData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingConnection, updateRoamingConnection, type ConnectionFields } from '../../src/roaming/save-roaming-connection.service.ts';
import { externalRef, iso, oneOf, text, uuid } from '../../src/platform/input-schemas.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Roaming';

export const roamingConnectionShape = representation('RoamingConnection', {
  id: t.string(),
  name: t.string(),
  kind: t.string('`locally_owned` or `provider_facilitated` (never has an agreement).'),
  protocol: t.string(),
  partner_id: t.nullable(t.string()),
  url: t.nullable(t.string()),
  notes: t.nullable(t.string()),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeRoamingConnection(c: RoamingConnectionData): Infer<typeof roamingConnectionShape> {
  return {
    id: c.id, name: c.name, kind: c.kind, protocol: c.protocol, partner_id: c.partner?.id ?? null, url: c.url ?? null, notes: c.notes ?? null,
    external_reference: c.externalReference ?? null, created_at: iso(c.createdAt), updated_at: iso(c.updatedAt),
  };
}

const connectionBody = yup.object({
  name: text().nullable(),
  kind: oneOf(CONNECTION_KINDS).nullable(),
  protocol: oneOf(ROAMING_PROTOCOLS).nullable(),
  partner_id: uuid().nullable(),
  url: text(2048).url('${path} must be a URL').nullable(),
  notes: text(10_000).nullable(),
  external_reference: externalRef().nullable(),
});
const CONNECTION: FieldMapping = { name: 'name', kind: 'kind', protocol: 'protocol', url: 'url', notes: 'notes', external_reference: 'externalReference' };

const inputOf = (body: Record<string, unknown>) => ({
  ...(patchFrom(body, CONNECTION) as Patch<ConnectionFields>), ...(Object.hasOwn(body, 'partner_id') ? { partnerId: body.partner_id as string | null } : {}),
});

export const roamingConnectionRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/roaming-connection', tag: TAG, summary: 'List roaming connections', extension: true, paged: true, response: roamingConnectionShape,
    description: 'Filters (AND): partner_id, kind.',
    query: yup.object({ partner_id: uuid(), kind: oneOf(CONNECTION_KINDS) }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: roamingConnectionList(em, { partnerId: query.partner_id, kind: query.kind }), rawQuery, path: '/main/v1/roaming-connection',
      serialize: serializeRoamingConnection,
    }),
  }),
  defineRoute({
    method: 'post', path: '/roaming-connection', graphql: 'createRoamingConnection', tag: TAG, summary: 'Create a roaming connection', extension: true, response: roamingConnectionShape,
    description: 'protocol defaults to `ocpi`; a locally owned connection names its partner. Roaming setup serves every administration: only a credential without an administration limit may change it (403 `forbidden` otherwise).',
    body: connectionBody,
    handler: async ({ em, body }) => serializeRoamingConnection(await createRoamingConnection(em, inputOf(body))),
  }),
  defineRoute({
    method: 'get', path: '/roaming-connection/:id', tag: TAG, summary: 'Get a roaming connection', extension: true, response: roamingConnectionShape,
    handler: async ({ em, params }) => serializeRoamingConnection(await getRoamingConnection(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/roaming-connection/:id', graphql: 'updateRoamingConnection', tag: TAG, summary: 'Merge-update a roaming connection', extension: true, body: connectionBody,
    response: roamingConnectionShape,
    handler: async ({ em, params, body }) => serializeRoamingConnection(await updateRoamingConnection(em, params.id, inputOf(body))),
  }),
];
