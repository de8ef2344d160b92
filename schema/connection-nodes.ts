// The nodes of connections shaped by a queries module's mapper: a child connection
// (child-connection.ts) pages rows of the child's table; the node type reads them as the data its
// queries module answers (e.g. a subscription with whether it is valid now).
type Edge<N> = { cursor: string; node: N };

export async function withNodesAs<C extends { edges: readonly Edge<unknown>[] }, M>(
  connections: Promise<C[]>, map: (node: C['edges'][number]['node']) => M,
): Promise<(Omit<C, 'edges'> & { edges: Edge<M>[] })[]> {
  return (await connections).map((connection) => ({ ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: map(edge.node) })) }));
}
