import { graphql, useFragment, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { Badge, DateTime, Empty } from '../components/format.tsx';
import { LoadMore, PAGE_SIZE, PageHeader } from '../components/ui.tsx';
import { Link, path, useFilters } from '../router.tsx';
import type { SessionsPageQuery, ChargeSessionStatus } from '../__generated__/SessionsPageQuery.graphql.ts';
import type { SessionList_query$key } from '../__generated__/SessionList_query.graphql.ts';
import type { SessionRow_session$key } from '../__generated__/SessionRow_session.graphql.ts';

/** A YYYY-MM-DD filter as the start of that day (UTC), `days` later; null when absent or not a date. */
function dayStart(value: string | null, days = 0): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const moment = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(moment.getTime())) return null;
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString();
}

const STATUSES: ChargeSessionStatus[] = ['RECEIVED', 'PRICED', 'PROCESSED', 'DROPOUT', 'DISCARDED'];

function SessionRow({ session }: { session: SessionRow_session$key }) {
  const s = useFragment(graphql`
    fragment SessionRow_session on ChargeSession {
      databaseId sessionId status source tokenEvcoId startDateTime timeZone totalEnergyKwh evseId evseUid
    }
  `, session);
  return (
    <tr>
      <td><Link to={path`/sessions/${s.databaseId}`}>{s.sessionId}</Link></td>
      <td><Badge state={s.status} /></td>
      <td><code>{s.tokenEvcoId}</code></td>
      <td><DateTime value={s.startDateTime} timeZone={s.timeZone} /></td>
      <td className="num">{s.totalEnergyKwh} kWh</td>
      <td>{s.evseId ?? s.evseUid ?? '—'}</td>
      <td>{s.source === 'cpo_charge_session' ? 'CPO' : 'MSP'}</td>
    </tr>
  );
}

export function SessionTable({ query }: { query: SessionList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment SessionList_query on Query
      @refetchable(queryName: "SessionListPaginationQuery")
      @argumentDefinitions(
        status: { type: "ChargeSessionStatus" }, cpo: { type: "Boolean" }, subscriptionId: { type: "ID" },
        dropoutCaseId: { type: "ID" }, evseUid: { type: "String" }, customerId: { type: "ID" }, tokenEvcoId: { type: "String" },
        startFrom: { type: "DateTime" }, startUntil: { type: "DateTime" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }
      ) {
      chargeSessions(
        status: $status, cpo: $cpo, subscriptionId: $subscriptionId, dropoutCaseId: $dropoutCaseId, evseUid: $evseUid, customerId: $customerId,
        tokenEvcoId: $tokenEvcoId, startFrom: $startFrom, startUntil: $startUntil, first: $count, after: $cursor
      ) @connection(key: "SessionList_chargeSessions", filters: ["status", "cpo", "subscriptionId", "dropoutCaseId", "evseUid", "customerId", "tokenEvcoId", "startFrom", "startUntil"]) {
        edges { node { id ...SessionRow_session } }
      }
    }
  `, query);
  if (!data.chargeSessions.edges.length) return <Empty>No charge sessions match. Sessions sent to POST /main/v1/charge-session or /cpo-charge-session, or from OCPI CDRs, appear here.</Empty>;
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Charge sessions</caption>
          <thead><tr><th scope="col">Session</th><th scope="col">Status</th><th scope="col">Token</th><th scope="col">Start (local)</th><th scope="col" className="num">Energy</th><th scope="col">EVSE</th><th scope="col">Side</th></tr></thead>
          <tbody>{data.chargeSessions.edges.map((edge) => <SessionRow key={edge.node.id} session={edge.node} />)}</tbody>
        </table>
      </div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function SessionsPage() {
  const [filters, setFilters] = useFilters();
  const status = STATUSES.find((s) => s === filters.get('status')) ?? null;
  const side = filters.get('side');
  const variables = {
    status, cpo: side === 'cpo' ? true : side === 'msp' ? false : null,
    subscriptionId: filters.get('subscriptionId'), dropoutCaseId: filters.get('dropoutCaseId'), evseUid: filters.get('evseUid'),
    customerId: filters.get('customerId'), tokenEvcoId: filters.get('token'),
    startFrom: dayStart(filters.get('from')), startUntil: dayStart(filters.get('until'), 1), count: PAGE_SIZE,
  };
  const data = useLazyLoadQuery<SessionsPageQuery>(graphql`
    query SessionsPageQuery(
      $status: ChargeSessionStatus, $cpo: Boolean, $subscriptionId: ID, $dropoutCaseId: ID, $evseUid: String, $customerId: ID, $tokenEvcoId: String,
      $startFrom: DateTime, $startUntil: DateTime, $count: Int!
    ) {
      ...SessionList_query @arguments(
        status: $status, cpo: $cpo, subscriptionId: $subscriptionId, dropoutCaseId: $dropoutCaseId, evseUid: $evseUid, customerId: $customerId,
        tokenEvcoId: $tokenEvcoId, startFrom: $startFrom, startUntil: $startUntil, count: $count
      )
    }
  `, variables, { fetchPolicy: 'store-and-network' });
  const text = (name: string, label: string, placeholder?: string) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <input id={`f-${name}`} defaultValue={filters.get(name) ?? ''} placeholder={placeholder}
        onBlur={(e) => setFilters({ [name]: e.target.value.trim() })} onKeyDown={(e) => { if (e.key === 'Enter') setFilters({ [name]: e.currentTarget.value.trim() }); }} />
    </div>
  );
  const date = (name: string, label: string) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <input id={`f-${name}`} type="date" value={filters.get(name) ?? ''} onChange={(e) => setFilters({ [name]: e.target.value })} />
    </div>
  );
  return (
    <>
      <PageHeader title="Charge sessions" />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" value={status ?? ''} onChange={(e) => setFilters({ status: e.target.value })}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s.toLowerCase()}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-side">Side</label>
          <select id="f-side" value={side ?? ''} onChange={(e) => setFilters({ side: e.target.value })}>
            <option value="">Both</option><option value="msp">MSP</option><option value="cpo">CPO</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-evse">EVSE uid</label>
          <input id="f-evse" defaultValue={filters.get('evseUid') ?? ''} onBlur={(e) => setFilters({ evseUid: e.target.value.trim() })} onKeyDown={(e) => { if (e.key === 'Enter') setFilters({ evseUid: e.currentTarget.value.trim() }); }} />
        </div>
        {text('customerId', 'Customer id', 'REST id')}
        {text('token', 'Token', 'EVCO id')}
        {date('from', 'Started from')}
        {date('until', 'Started until (incl.)')}
        {variables.subscriptionId ? <p className="chip">Subscription {variables.subscriptionId} <button type="button" onClick={() => setFilters({ subscriptionId: null })}>Clear</button></p> : null}
        {variables.dropoutCaseId ? <p className="chip">Drop-out case {variables.dropoutCaseId} <button type="button" onClick={() => setFilters({ dropoutCaseId: null })}>Clear</button></p> : null}
      </form>
      <SessionTable query={data} />
    </>
  );
}
