import { useState } from 'react';
import { graphql, useFragment, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { Badge, DateTime, Empty } from '../components/format.tsx';
import { ActionButton, LoadMore, PAGE_SIZE, PageHeader } from '../components/ui.tsx';
import { Link, useFilters } from '../router.tsx';
import type { DropoutsPageQuery, DropoutCaseStatus, DropoutCaseSide } from '../__generated__/DropoutsPageQuery.graphql.ts';
import type { DropoutList_query$key } from '../__generated__/DropoutList_query.graphql.ts';
import type { DropoutRow_case$key } from '../__generated__/DropoutRow_case.graphql.ts';
import type { DropoutReprocessMutation } from '../__generated__/DropoutReprocessMutation.graphql.ts';

const CHECKS = ['start_before_end', 'plausible_energy', 'end_in_past', 'not_too_old'];

const reprocess = graphql`
  mutation DropoutReprocessMutation($id: ID!, $instruction: ReprocessInstruction!, $bypassChecks: [String!]) {
    reprocessDropoutCase(id: $id, instruction: $instruction, bypassChecks: $bypassChecks) { id status resolution resolvedAt }
  }
`;

function DropoutRow({ dropout }: { dropout: DropoutRow_case$key }) {
  const d = useFragment(graphql`
    fragment DropoutRow_case on DropoutCase { id databaseId reason message side status resolution resolvedAt sessionCount createdAt evseUid }
  `, dropout);
  const [checks, setChecks] = useState<string[]>([]);
  const sessions = `${d.sessionCount} session${d.sessionCount === 1 ? '' : 's'}`;
  return (
    <tr>
      <td><Badge state={d.status} />{d.resolution ? <span className="muted"> {d.resolution.toLowerCase()}</span> : null}</td>
      <td><strong>{d.reason}</strong><div className="muted">{d.message}</div></td>
      <td>{d.side}</td>
      <td><Link to={`/sessions?dropoutCaseId=${encodeURIComponent(d.databaseId)}`}>{sessions}</Link></td>
      <td><DateTime value={d.createdAt} /></td>
      <td className="row-actions">
        {d.status === 'OPEN' ? (
          <>
            <ActionButton<DropoutReprocessMutation> label="Retry" primary explain={<p>The case is resolved and its {sessions} go through the pipeline again, as they are.</p>}
              mutation={reprocess} variables={{ id: d.databaseId, instruction: 'RETRY' }} done="Retried" />
            <ActionButton<DropoutReprocessMutation> label="Bypass" title="Bypass validity checks?"
              explain={<fieldset><legend>The {sessions} go through the pipeline again without these checks:</legend>
                {CHECKS.map((c) => (
                  <label key={c} className="check"><input type="checkbox" checked={checks.includes(c)} onChange={(e) => setChecks(e.target.checked ? [...checks, c] : checks.filter((x) => x !== c))} /> {c}</label>
                ))}</fieldset>}
              mutation={reprocess} variables={{ id: d.databaseId, instruction: 'BYPASS', bypassChecks: checks }} done="Bypassed" />
            <ActionButton<DropoutReprocessMutation> label="Discard" danger explain={<p>The {sessions} are discarded: never priced nor billed. This cannot be undone.</p>}
              mutation={reprocess} variables={{ id: d.databaseId, instruction: 'DISCARD' }} done="Discarded" />
          </>
        ) : <span className="muted">resolved <DateTime value={d.resolvedAt} /></span>}
      </td>
    </tr>
  );
}

function DropoutList({ query }: { query: DropoutList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment DropoutList_query on Query
      @refetchable(queryName: "DropoutListPaginationQuery")
      @argumentDefinitions(status: { type: "DropoutCaseStatus" }, side: { type: "DropoutCaseSide" }, reason: { type: "String" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      dropoutCases(status: $status, side: $side, reason: $reason, first: $count, after: $cursor) @connection(key: "DropoutList_dropoutCases", filters: ["status", "side", "reason"]) {
        edges { node { id ...DropoutRow_case } }
      }
    }
  `, query);
  if (!data.dropoutCases.edges.length) return <Empty>No drop-out cases match. Sessions the pipeline cannot price or reimburse (unknown token, missing rate plan…) collect in cases here.</Empty>;
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Drop-out cases</caption>
          <thead><tr><th scope="col">State</th><th scope="col">Reason</th><th scope="col">Side</th><th scope="col">Sessions</th><th scope="col">Since</th><th scope="col">Actions</th></tr></thead>
          <tbody>{data.dropoutCases.edges.map((edge) => <DropoutRow key={edge.node.id} dropout={edge.node} />)}</tbody>
        </table>
      </div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function DropoutsPage() {
  const [filters, setFilters] = useFilters();
  const status = (['OPEN', 'RESOLVED'] as DropoutCaseStatus[]).find((s) => s === (filters.get('status') ?? 'OPEN')) ?? null;
  const side = (['MSP', 'CPO'] as DropoutCaseSide[]).find((s) => s === filters.get('side')) ?? null;
  const data = useLazyLoadQuery<DropoutsPageQuery>(graphql`
    query DropoutsPageQuery($status: DropoutCaseStatus, $side: DropoutCaseSide, $reason: String, $count: Int!) {
      ...DropoutList_query @arguments(status: $status, side: $side, reason: $reason, count: $count)
    }
  `, { status, side, reason: filters.get('reason'), count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Drop-outs" subtitle="Sessions the pipeline set aside: retry, bypass checks for, or discard them" />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="f-dstatus">State</label>
          <select id="f-dstatus" value={filters.get('status') ?? 'OPEN'} onChange={(e) => setFilters({ status: e.target.value === 'OPEN' ? null : e.target.value || 'ANY' })}>
            <option value="OPEN">Open</option><option value="RESOLVED">Resolved</option><option value="ANY">Any</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-dside">Side</label>
          <select id="f-dside" value={side ?? ''} onChange={(e) => setFilters({ side: e.target.value })}>
            <option value="">Both</option><option value="MSP">MSP</option><option value="CPO">CPO</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-reason">Reason</label>
          <input id="f-reason" defaultValue={filters.get('reason') ?? ''} placeholder="unknown_token" onKeyDown={(e) => { if (e.key === 'Enter') setFilters({ reason: e.currentTarget.value.trim() }); }} onBlur={(e) => setFilters({ reason: e.target.value.trim() })} />
        </div>
      </form>
      <DropoutList query={data} />
    </>
  );
}
