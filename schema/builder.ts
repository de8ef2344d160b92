import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin, { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import { isObjectType, type GraphQLResolveInfo } from 'graphql';
import { InvalidInputError } from '../src/platform/errors.ts';
import { MAX_PAGE_SIZE } from './connection.ts';
import type { GraphQLContext } from './context.ts';

type GlobalID = { typename: string; id: string };

/** A global ID that does not decode names no type; `node`/`nodes` then answer null for it. */
function lenientDecodeGlobalID(globalID: string): GlobalID {
  try {
    return decodeGlobalID(globalID);
  } catch {
    return { typename: '', id: globalID };
  }
}

function isNodeType(info: GraphQLResolveInfo, typename: string): boolean {
  const type = typename ? info.schema.getType(typename) : undefined;
  return isObjectType(type) && type.getInterfaces().some((iface) => iface.name === 'Node');
}

/** Like the plugin's own `nodes`, but an ID of no node type is null instead of an error. */
async function resolveKnownNodes(context: GraphQLContext, info: GraphQLResolveInfo, ids: GlobalID[]): Promise<unknown[]> {
  if (ids.length > MAX_PAGE_SIZE) throw new InvalidInputError(`at most ${MAX_PAGE_SIZE} ids at once`, { path: ['ids'] });
  const known = ids.filter((id) => isNodeType(info, id.typename));
  const loaded = known.length ? await resolveNodes(builder, context, info, known) : [];
  const byGlobalID = new Map(known.map((id, i) => [id, loaded[i]]));
  return ids.map((id) => byGlobalID.get(id) ?? null);
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    decodeGlobalID: lenientDecodeGlobalID,
    edgesFieldOptions: { nullable: { list: false, items: false } },
    nodeFieldOptions: { nullable: false },
    nodeQueryOptions: {
      description: 'The object with this global ID, or null when there is none the caller may see.',
      resolve: async (_root, args, context, info) => (await resolveKnownNodes(context, info, [args.id]))[0],
    },
    nodesQueryOptions: {
      description: 'The objects with these global IDs, in the same order; null for each one the caller may not see.',
      resolve: (_root, args, context, info) => resolveKnownNodes(context, info, args.ids),
    },
  },
});
