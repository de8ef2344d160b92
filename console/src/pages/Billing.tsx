import { Suspense, useEffect, useState } from 'react';
import { fetchQuery, graphql, useFragment, useLazyLoadQuery, usePaginationFragment, useRelayEnvironment } from 'react-relay';
import { useEntity } from '../components/EntityId.tsx';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { Badge, countsText, DateTime, Empty, MoneyCell, Period } from '../components/format.tsx';
import { ActionButton, Facts, LoadMore, PAGE_SIZE, PageHeader, Section } from '../components/ui.tsx';
import { globalId } from '../relay/environment.ts';
import { Link, path, useFilters } from '../router.tsx';
import type { BillingPageQuery } from '../__generated__/BillingPageQuery.graphql.ts';
import type { ReviewSetList_query$key } from '../__generated__/ReviewSetList_query.graphql.ts';
import type { ReviewSetPageQuery, BillingBoxState } from '../__generated__/ReviewSetPageQuery.graphql.ts';
import type { ReviewSetBoxes_set$key } from '../__generated__/ReviewSetBoxes_set.graphql.ts';
import type { BoxRow_box$key } from '../__generated__/BoxRow_box.graphql.ts';
import type { ReviewSetCloseMutation } from '../__generated__/ReviewSetCloseMutation.graphql.ts';
import type { ReviewSetApproveMutation } from '../__generated__/ReviewSetApproveMutation.graphql.ts';
import type { ReviewSetOperationQuery } from '../__generated__/ReviewSetOperationQuery.graphql.ts';

const STATES: BillingBoxState[] = ['OPEN', 'CLOSED', 'APPROVED', 'READY', 'FINALIZED'];

function ReviewSetList({ query }: { query: ReviewSetList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment ReviewSetList_query on Query
      @refetchable(queryName: "ReviewSetListPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      billingReviewSets(first: $count, after: $cursor) @connection(key: "ReviewSetList_billingReviewSets") {
        edges { node { id databaseId code seriesCode adminId state periodFrom periodUntil boxCounts { open closed approved ready finalized } deferredBoxCount closedAt } }
      }
    }
  `, query);
  const edges = data.billingReviewSets.edges;
  if (!edges.length) return <Empty>No review sets: a billing series collects each period's boxes in one.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">Review sets</caption>
        <thead><tr><th scope="col">Review set</th><th scope="col">Administration</th><th scope="col">Period</th><th scope="col">State</th><th scope="col">Boxes</th></tr></thead>
        <tbody>{edges.map(({ node: s }) => (
          <tr key={s.id}>
            <td><Link to={path`/billing/review-sets/${s.databaseId}`}>{s.code}</Link></td>
            <td>{s.adminId}</td>
            <td><Period from={s.periodFrom!} until={s.periodUntil!} /></td>
            <td><Badge state={s.state} /></td>
            <td>{countsText(s.boxCounts) || '—'}{s.deferredBoxCount ? `, ${s.deferredBoxCount} deferred` : ''}</td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function BillingPage() {
  const data = useLazyLoadQuery<BillingPageQuery>(graphql`
    query BillingPageQuery($count: Int!) { ...ReviewSetList_query @arguments(count: $count) }
  `, { count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Billing review" subtitle="Review-set → boxes → roll-ups → items" />
      <ReviewSetList query={data} />
    </>
  );
}

function BoxRow({ box }: { box: BoxRow_box$key }) {
  const b = useFragment(graphql`
    fragment BoxRow_box on BillingBox {
      databaseId partyName partyExternalReference partyId state deferred invoiceCode currencyCode totalAmountExclVat totalVatAmount totalAmountInclVat
    }
  `, box);
  return (
    <tr>
      <td><Link to={path`/billing/boxes/${b.databaseId}`}>{b.partyName ?? b.partyId}</Link> <span className="muted">{b.partyExternalReference}</span></td>
      <td><Badge state={b.state} />{b.deferred ? <> <Badge state="deferred" /></> : null}</td>
      <MoneyCell amount={b.totalAmountExclVat} currency={b.currencyCode} />
      <MoneyCell amount={b.totalVatAmount} currency={b.currencyCode} />
      <MoneyCell amount={b.totalAmountInclVat} currency={b.currencyCode} />
      <td>{b.invoiceCode ?? <span className="muted">—</span>}</td>
    </tr>
  );
}

function ReviewSetBoxes({ set }: { set: ReviewSetBoxes_set$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment ReviewSetBoxes_set on BillingReviewSet
      @refetchable(queryName: "ReviewSetBoxesPaginationQuery")
      @argumentDefinitions(state: { type: "BillingBoxState" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      boxes(state: $state, first: $count, after: $cursor) @connection(key: "ReviewSetBoxes_boxes", filters: ["state"]) {
        edges { node { id ...BoxRow_box } }
      }
    }
  `, set);
  if (!data.boxes.edges.length) return <Empty>No boxes in this state.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">Billing boxes</caption>
        <thead><tr><th scope="col">Party</th><th scope="col">State</th><th scope="col" className="num">Excl. VAT</th><th scope="col" className="num">VAT</th><th scope="col" className="num">Incl. VAT</th><th scope="col">Number</th></tr></thead>
        <tbody>{data.boxes.edges.map((edge) => <BoxRow key={edge.node.id} box={edge.node} />)}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

const operationQuery = graphql`
  query ReviewSetOperationQuery($id: ID!) { billingReviewSetOperation(id: $id) { databaseId state operation error { code message } } }
`;

/** Follows a close or approve job until it is done or failed. */
function useOperation(onFinished: () => void) {
  const environment = useRelayEnvironment();
  const [operation, setOperation] = useState<{ id: string; state: string; error?: { code: string; message: string } | null } | null>(null);
  useEffect(() => {
    if (!operation || operation.state !== 'PENDING') return;
    const timer = setTimeout(async () => {
      const result = await fetchQuery<ReviewSetOperationQuery>(environment, operationQuery, { id: operation.id }, { fetchPolicy: 'network-only' }).toPromise();
      const op = result?.billingReviewSetOperation;
      if (!op) return;
      setOperation({ id: op.databaseId, state: op.state, error: op.error });
      if (op.state !== 'PENDING') onFinished();
    }, 800);
    return () => clearTimeout(timer);
  }, [operation, environment, onFinished]);
  return [operation, setOperation] as const;
}

export function ReviewSetPage({ id }: { id: string }) {
  const [filters, setFilters] = useFilters();
  const state = STATES.find((s) => s === filters.get('state')) ?? null;
  const [fetchKey, setFetchKey] = useState(0);
  const data = useLazyLoadQuery<ReviewSetPageQuery>(graphql`
    query ReviewSetPageQuery($id: ID!, $state: BillingBoxState, $count: Int!) {
      node(id: $id) {
        ... on BillingReviewSet {
          id databaseId code seriesCode adminId state periodFrom periodUntil closedAt boxCounts { open closed approved ready finalized } deferredBoxCount
          ...ReviewSetBoxes_set @alias(as: "boxList") @arguments(state: $state, count: $count)
        }
      }
    }
  `, { id: globalId('BillingReviewSet', id), state, count: PAGE_SIZE }, { fetchPolicy: fetchKey ? 'network-only' : 'store-and-network', fetchKey });
  const [operation, setOperation] = useOperation(() => setFetchKey((k) => k + 1));
  const s = data.node && 'code' in data.node ? data.node : null;
  useEntity(s?.databaseId ? { type: 'Review set', restId: s.databaseId, restPath: `/billing-review-set/${s.databaseId}` } : null);
  if (!s || !s.databaseId) return <><PageHeader title="Review set not found" /><Empty>No review set you may see has the id {id}.</Empty></>;
  const counts = s.boxCounts ?? { open: 0, closed: 0, approved: 0, ready: 0, finalized: 0 };
  return (
    <>
      <p className="crumbs"><Link to="/billing">Billing</Link> › {s.code}</p>
      <PageHeader title={<>Review set {s.code}</>} badges={<Badge state={s.state!} />}
        subtitle={<>{s.adminId} · <Period from={s.periodFrom!} until={s.periodUntil!} /> · press Shift+Y for its id</>}
        actions={<>
          {counts.open ? <ActionButton<ReviewSetCloseMutation> label={`Close ${counts.open} open boxes`} explain={<p>Bills the period's fees, then closes the {counts.open} open boxes of {s.code}: no new items enter them.</p>}
            mutation={graphql`mutation ReviewSetCloseMutation($id: ID!) { closeBillingReviewSet(id: $id) { databaseId state operation } }`}
            variables={{ id: s.databaseId }} done="Closing…" onDone={(r) => r.closeBillingReviewSet && setOperation({ id: r.closeBillingReviewSet.databaseId, state: r.closeBillingReviewSet.state })} /> : null}
          {counts.closed ? <ActionButton<ReviewSetApproveMutation> label={`Approve ${counts.closed} boxes`} primary explain={<p>Approves the {counts.closed} closed boxes of {s.code} that are not deferred; their documents are rendered for finalizing.</p>}
            mutation={graphql`mutation ReviewSetApproveMutation($id: ID!) { approveBillingReviewSet(id: $id) { databaseId state operation } }`}
            variables={{ id: s.databaseId }} done="Approving…" onDone={(r) => r.approveBillingReviewSet && setOperation({ id: r.approveBillingReviewSet.databaseId, state: r.approveBillingReviewSet.state })} /> : null}
        </>} />
      {operation ? (
        operation.state === 'FAILED' ? <ErrorBox error={new Error(`${operation.error?.message ?? 'failed'} (${operation.error?.code ?? ''})`)} title="The operation failed" />
          : <p role="status" className="notice">Operation {operation.state.toLowerCase()}{operation.state === 'PENDING' ? '…' : ''}</p>
      ) : null}
      <Facts items={[['Series', s.seriesCode], ['Closed', <DateTime value={s.closedAt} />], ['Boxes', countsText(counts) || '—'], ['Deferred', String(s.deferredBoxCount)]]} />
      <Section title="Boxes">
        <form className="filters" onSubmit={(e) => e.preventDefault()}>
          <div className="field">
            <label htmlFor="f-bstate">State</label>
            <select id="f-bstate" value={state ?? ''} onChange={(e) => setFilters({ state: e.target.value })}>
              <option value="">Any</option>
              {STATES.map((x) => <option key={x} value={x}>{x.toLowerCase()}</option>)}
            </select>
          </div>
        </form>
        {s.boxList ? <ReviewSetBoxes set={s.boxList} /> : null}
      </Section>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={s.databaseId} /></Suspense>
    </>
  );
}
