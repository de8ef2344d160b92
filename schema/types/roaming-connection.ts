import * as yup from 'yup';
import { CONNECTION_KINDS, ROAMING_PROTOCOLS } from '../../src/roaming/roaming-connection.entity.ts';
import { roamingConnectionList, roamingConnectionsByIds, type RoamingConnectionData } from '../../src/roaming/roaming.queries.ts';
import { createRoamingConnection, updateRoamingConnection, type ConnectionFields } from '../../src/roaming/save-roaming-connection.service.ts';
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

export const RoamingConnection = builder.loadableNode('RoamingConnection', {
  description: 'A technical link to a roaming platform (REST: /roaming-connection/{id}).',
  id: { resolve: (c) => c.id },
  cacheResolved: (c) => c.id,
  isTypeOf: (value) => isDataOf(value, 'RoamingConnection'),
  load: (ids: string[], context: GraphQLContext) => roamingConnectionsByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    name: t.exposeString('name'),
    kind: t.string({ description: '`locally_owned` or `provider_facilitated` (never has an agreement).', resolve: (c) => c.kind }),
    protocol: t.string({ resolve: (c) => c.protocol }),
    partnerId: t.string({ nullable: true, resolve: (c) => c.partner?.id ?? null }),
    url: t.string({ nullable: true, resolve: (c) => c.url ?? null }),
    notes: t.string({ nullable: true, resolve: (c) => c.notes ?? null }),
    externalReference: t.string({ nullable: true, resolve: (c) => c.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (c) => c.updatedAt }),
  }),
});

const RoamingConnectionConnection = builder.connectionObject({ type: RoamingConnection, name: 'RoamingConnectionConnection' }, { name: 'RoamingConnectionEdge' });

builder.queryFields((t) => ({
  roamingConnections: t.connection({
    type: RoamingConnection, description: 'Roaming connections by id (REST: GET /roaming-connection).',
    resolve: (_root, args, context) => listConnection<RoamingConnectionData>(roamingConnectionList(context.em), args),
  }, RoamingConnectionConnection),
}));

const RoamingConnectionInput = builder.inputType('RoamingConnectionInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs name and kind '
    + '(and partnerId for a locally owned connection).',
  fields: (t) => ({
    name: t.string(),
    kind: t.string({ description: `One of ${CONNECTION_KINDS.join(', ')}; a connection with agreements cannot become provider_facilitated.` }),
    protocol: t.string({ description: `One of ${ROAMING_PROTOCOLS.join(', ')} (the default).` }),
    partnerId: t.id({ description: 'Global ID or REST id of the roaming partner; required for a locally owned connection, cannot change while it has agreements.' }),
    url: t.string({ description: 'A URL, at most 2048 characters.' }),
    notes: t.string({ description: 'At most 10,000 characters.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const connectionRules = yup.object({
  name: text().nullable(),
  kind: oneOf(CONNECTION_KINDS).nullable(),
  protocol: oneOf(ROAMING_PROTOCOLS).nullable(),
  partnerId: text(64).nullable(),
  url: text(2048).url('${path} must be a URL').nullable(),
  notes: text(10_000).nullable(),
  externalReference: externalRef().nullable(),
});

function connectionPatch(input: typeof RoamingConnectionInput.$inferInput): Patch<ConnectionFields> & { partnerId?: string | null } {
  const { partnerId, ...fields } = input;
  const patch = { ...(fields as Patch<ConnectionFields>), ...(partnerId !== undefined ? { partnerId: partnerId === null ? null : idArg(partnerId, 'RoamingPartner') } : {}) };
  validate(connectionRules, patch);
  return patch;
}

const ID_DESCRIPTION = 'Global ID or REST id.';

builder.mutationFields((t) => ({
  createRoamingConnection: t.field({
    type: RoamingConnection, nullable: true, description: 'Creates a roaming connection (REST: POST /roaming-connection). Needs a credential without an administration limit.',
    args: { input: t.arg({ type: RoamingConnectionInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createRoamingConnection(em, connectionPatch(args.input))),
  }),
  updateRoamingConnection: t.field({
    type: RoamingConnection, nullable: true, description: 'Merge-updates a roaming connection (REST: POST /roaming-connection/{id}). Needs a credential without an administration limit.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: RoamingConnectionInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) =>
      updateRoamingConnection(em, idArg(args.id, 'RoamingConnection'), connectionPatch(args.input))),
  }),
}));
