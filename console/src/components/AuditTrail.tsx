import { graphql, useFragment, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { DateTime, Empty, JsonBlock } from './format.tsx';
import { LoadMore, Section } from './ui.tsx';
import type { AuditTrailQuery } from '../__generated__/AuditTrailQuery.graphql.ts';
import type { AuditTrail_query$key } from '../__generated__/AuditTrail_query.graphql.ts';
import type { AuditEventRow_event$key } from '../__generated__/AuditEventRow_event.graphql.ts';

export function AuditEventRow({ event, showResource = false }: { event: AuditEventRow_event$key; showResource?: boolean }) {
  const e = useFragment(graphql`
    fragment AuditEventRow_event on AuditEvent { eventId kind modificationKind resourceId actor adminId occurredAt changes }
  `, event);
  return (
    <tr>
      <td><DateTime value={e.occurredAt} /></td>
      <td>{e.kind}</td>
      <td>{e.modificationKind}</td>
      {showResource ? <td><code>{e.resourceId}</code></td> : null}
      <td>{e.actor}</td>
      <td>{e.changes ? <details><summary>changes</summary><JsonBlock value={e.changes} /></details> : <span className="muted">—</span>}</td>
    </tr>
  );
}

export function AuditTable({ query, showResource }: { query: AuditTrail_query$key; showResource?: boolean }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment AuditTrail_query on Query
      @refetchable(queryName: "AuditTrailPaginationQuery")
      @argumentDefinitions(resourceId: { type: "String" }, kind: { type: "String" }, actor: { type: "String" }, count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
      events(resourceId: $resourceId, kind: $kind, actor: $actor, first: $count, after: $cursor) @connection(key: "AuditTrail_events", filters: ["resourceId", "kind", "actor"]) {
        edges { node { eventId ...AuditEventRow_event } }
      }
    }
  `, query);
  if (!data.events.edges.length) return <Empty>No recorded changes: every create, update and state change of this record would appear here.</Empty>;
  return (
    <>
      <div className="table-wrap">
        <table>
          <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Change</th>{showResource ? <th scope="col">Record</th> : null}<th scope="col">By</th><th scope="col">Details</th></tr></thead>
          <tbody>{data.events.edges.map((edge) => <AuditEventRow key={edge.node.eventId} event={edge.node} showResource={showResource} />)}</tbody>
        </table>
      </div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} label="Older changes" />
    </>
  );
}

/** The audit trail of one record (its REST id), at the bottom of its page. */
export function AuditTrail({ resourceId }: { resourceId: string }) {
  const data = useLazyLoadQuery<AuditTrailQuery>(graphql`
    query AuditTrailQuery($resourceId: String!) {
      ...AuditTrail_query @arguments(resourceId: $resourceId)
    }
  `, { resourceId }, { fetchPolicy: 'store-and-network' });
  return <Section title="Audit trail"><AuditTable query={data} /></Section>;
}
