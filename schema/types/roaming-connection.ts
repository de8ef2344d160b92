import { RoamingConnection as ConnectionEntity } from '../../src/roaming/roaming-connection.entity.ts';
import { roamingConnectionList } from '../../src/roaming/roaming.queries.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { loadByIds } from '../load.ts';
import { DateTime } from './date-time.ts';

export const RoamingConnection = builder.loadableNode(ConnectionEntity, {
  name: 'RoamingConnection',
  description: 'A technical link to a roaming platform (REST: /roaming-connection/{id}).',
  id: { resolve: (c) => c.id },
  cacheResolved: (c) => c.id,
  load: (ids: string[], context) => loadByIds(context.em, ConnectionEntity, ids),
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
    resolve: (_root, args, context) => listConnection<ConnectionEntity>(roamingConnectionList(context.em), args),
  }, RoamingConnectionConnection),
}));
