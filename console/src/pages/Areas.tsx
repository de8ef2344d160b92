// The list pages of EVSEs and locations, reimbursement, roaming, webhooks (with their delivery
// log) and the audit trail.
import { graphql, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { useAdminFilter } from '../components/Layout.tsx';
import { AuditTable } from '../components/AuditTrail.tsx';
import { Badge, DateTime, Empty, MoneyCell } from '../components/format.tsx';
import { ActionButton, LoadMore, PAGE_SIZE, PageHeader, Section } from '../components/ui.tsx';
import { globalId } from '../relay/environment.ts';
import { Link, path, useFilters } from '../router.tsx';
import type { EvseList_query$key } from '../__generated__/EvseList_query.graphql.ts';
import type { ArrangementList_query$key } from '../__generated__/ArrangementList_query.graphql.ts';
import type { DeliveryLogQuery } from '../__generated__/DeliveryLogQuery.graphql.ts';
import type { DeliveryLog_subscription$key } from '../__generated__/DeliveryLog_subscription.graphql.ts';
import type { EvsesPageQuery } from '../__generated__/EvsesPageQuery.graphql.ts';
import type { LocationList_query$key } from '../__generated__/LocationList_query.graphql.ts';
import type { ReimbursementPageQuery } from '../__generated__/ReimbursementPageQuery.graphql.ts';
import type { ReimbursementList_query$key } from '../__generated__/ReimbursementList_query.graphql.ts';
import type { RoamingPageQuery } from '../__generated__/RoamingPageQuery.graphql.ts';
import type { WebhooksPageQuery } from '../__generated__/WebhooksPageQuery.graphql.ts';
import type { WebhookList_query$key } from '../__generated__/WebhookList_query.graphql.ts';
import type { WebhookToggleMutation } from '../__generated__/WebhookToggleMutation.graphql.ts';
import type { AuditPageQuery } from '../__generated__/AuditPageQuery.graphql.ts';

function LocationList({ query }: { query: LocationList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment LocationList_query on Query
      @refetchable(queryName: "LocationListPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      evseLocations(first: $count, after: $cursor) @connection(key: "LocationList_evseLocations") {
        edges { node { id locationId name street postalCode city country timeZone adminId cpoId deactivatedAt } }
      }
    }
  `, query);
  if (!data.evseLocations.edges.length) return <Empty>No EVSE locations: locations saved over REST (POST /main/v1/cpo-evse-location) appear here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">EVSE locations</caption>
        <thead><tr><th scope="col">Location</th><th scope="col">Name</th><th scope="col">Address</th><th scope="col">Time zone</th><th scope="col">Administration</th><th scope="col">State</th></tr></thead>
        <tbody>{data.evseLocations.edges.map(({ node: l }) => (
          <tr key={l.id}>
            <td><code>{l.locationId}</code></td><td>{l.name ?? '—'}</td>
            <td>{[l.street, [l.postalCode, l.city].filter(Boolean).join(' '), l.country].filter(Boolean).join(', ')}</td>
            <td>{l.timeZone ?? '—'}</td><td>{l.adminId}</td>
            <td>{l.deactivatedAt ? <Badge state="disabled" /> : <Badge state="active" />}</td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

function EvseList({ query }: { query: EvseList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment EvseList_query on Query
      @refetchable(queryName: "EvseListPaginationQuery")
      @argumentDefinitions(adminId: { type: "ID" }, locationId: { type: "String" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      evses(adminId: $adminId, locationId: $locationId, first: $count, after: $cursor) @connection(key: "EvseList_evses", filters: ["adminId", "locationId"]) {
        edges { node { id evseUid evseId adminId locationId dropoutAllChargesessions reimbursementMandatory connectors { id powerType maxPowerKw } } }
      }
    }
  `, query);
  if (!data.evses.edges.length) return <Empty>No EVSEs match: EVSEs saved over REST (POST /main/v1/cpo-evse) appear here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">EVSEs</caption>
        <thead><tr><th scope="col">EVSE uid</th><th scope="col">EVSE id</th><th scope="col">Location</th><th scope="col">Connectors</th><th scope="col">Administration</th><th scope="col">Sessions</th></tr></thead>
        <tbody>{data.evses.edges.map(({ node: e }) => (
          <tr key={e.id}>
            <td><code>{e.evseUid}</code>{e.dropoutAllChargesessions ? <> <Badge state="dropout" /></> : null}</td>
            <td>{e.evseId ?? '—'}</td>
            <td>{e.locationId ? <Link to={`/evses?location=${encodeURIComponent(e.locationId)}`}>{e.locationId}</Link> : '—'}</td>
            <td>{e.connectors.map((c) => `${c.id}${c.maxPowerKw ? ` ${c.maxPowerKw} kW` : ''}`).join(', ') || '—'}</td>
            <td>{e.adminId}</td>
            <td><Link to={`/sessions?side=cpo&evseUid=${encodeURIComponent(e.evseUid)}`}>Sessions</Link></td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function EvsesPage() {
  const { adminId } = useAdminFilter();
  const [filters, setFilters] = useFilters();
  const locationId = filters.get('location');
  const data = useLazyLoadQuery<EvsesPageQuery>(graphql`
    query EvsesPageQuery($count: Int!, $adminId: ID, $locationId: String) {
      ...LocationList_query @arguments(count: $count)
      ...EvseList_query @arguments(adminId: $adminId, locationId: $locationId, count: $count)
    }
  `, { count: PAGE_SIZE, adminId, locationId }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="EVSEs & locations" subtitle={adminId ? `Administration ${adminId}` : 'All administrations you see'} />
      <Section title="EVSEs">
        <form className="filters" onSubmit={(e) => e.preventDefault()}>
          <div className="field">
            <label htmlFor="f-location">Location id</label>
            <input id="f-location" defaultValue={locationId ?? ''} onBlur={(e) => setFilters({ location: e.target.value.trim() })} onKeyDown={(e) => { if (e.key === 'Enter') setFilters({ location: e.currentTarget.value.trim() }); }} />
          </div>
        </form>
        <EvseList query={data} />
      </Section>
      <Section title="Locations"><LocationList query={data} /></Section>
    </>
  );
}

function ArrangementList({ query }: { query: ArrangementList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment ArrangementList_query on Query
      @refetchable(queryName: "ArrangementListPaginationQuery")
      @argumentDefinitions(adminId: { type: "ID" }, customerId: { type: "ID" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      reimbursementArrangements(adminId: $adminId, customerId: $customerId, first: $count, after: $cursor)
        @connection(key: "ArrangementList_reimbursementArrangements", filters: ["adminId", "customerId"]) {
        edges { node { id databaseId adminId customerId customer { name } plan { name } validFrom validUntil defunct externalReference } }
      }
    }
  `, query);
  const edges = data.reimbursementArrangements.edges;
  if (!edges.length) return <Empty>No reimbursement arrangements match: arrangements saved over REST (POST /main/v1/cpo-reimbursement-arrangement) appear here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">Reimbursement arrangements</caption>
        <thead><tr><th scope="col">Arrangement</th><th scope="col">EVSE owner</th><th scope="col">Plan</th><th scope="col">Valid</th><th scope="col">Administration</th></tr></thead>
        <tbody>{edges.map(({ node: a }) => (
          <tr key={a.id}>
            <td><Link to={path`/reimbursement/arrangements/${a.databaseId}`}>{a.externalReference ?? `${a.databaseId.slice(0, 8)}…`}</Link>{a.defunct ? <> <Badge state="defunct" /></> : null}</td>
            <td><Link to={path`/customers/${a.customerId}`}>{a.customer?.name ?? a.customerId}</Link></td>
            <td>{a.plan?.name ?? '—'}</td>
            <td><DateTime value={a.validFrom} dateOnly /> – {a.validUntil ? <DateTime value={a.validUntil} dateOnly /> : 'open'}</td>
            <td>{a.adminId}</td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function ReimbursementList({ query }: { query: ReimbursementList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment ReimbursementList_query on Query
      @refetchable(queryName: "ReimbursementListPaginationQuery")
      @argumentDefinitions(arrangementId: { type: "ID" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      cpoChargeSessionReimbursements(arrangementId: $arrangementId, first: $count, after: $cursor) @connection(key: "ReimbursementList_cpoChargeSessionReimbursements", filters: ["arrangementId"]) {
        edges { node { id chargeSessionId arrangementId customerId startDateTime version currencyCode totalAmountExclVat totalVatAmount totalAmountInclVat } }
      }
    }
  `, query);
  const edges = data.cpoChargeSessionReimbursements.edges;
  if (!edges.length) return <Empty>No reimbursements: CPO sessions at EVSEs with a reimbursement arrangement are reimbursed here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <thead><tr><th scope="col">Session</th><th scope="col">Arrangement</th><th scope="col">Start</th><th scope="col">Version</th><th scope="col" className="num">Excl. VAT</th><th scope="col" className="num">VAT</th><th scope="col" className="num">Incl. VAT</th></tr></thead>
        <tbody>{edges.map(({ node: r }) => (
          <tr key={r.id}>
            <td><Link to={`/sessions/${encodeURIComponent(r.chargeSessionId)}`}>{r.chargeSessionId.slice(0, 8)}…</Link></td>
            <td><Link to={`/reimbursement/arrangements/${encodeURIComponent(r.arrangementId)}`}>{r.arrangementId.slice(0, 8)}…</Link></td>
            <td><DateTime value={r.startDateTime} /></td><td>{r.version}</td>
            <MoneyCell amount={r.totalAmountExclVat} currency={r.currencyCode} /><MoneyCell amount={r.totalVatAmount} currency={r.currencyCode} /><MoneyCell amount={r.totalAmountInclVat} currency={r.currencyCode} />
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function ReimbursementPage() {
  const { adminId } = useAdminFilter();
  const [filters, setFilters] = useFilters();
  const arrangementId = filters.get('arrangementId');
  const customerId = filters.get('customerId');
  const data = useLazyLoadQuery<ReimbursementPageQuery>(graphql`
    query ReimbursementPageQuery($arrangementId: ID, $adminId: ID, $customerId: ID, $count: Int!) {
      reimbursementPlans { id databaseId name adminId mode components publishFrom publishUntil }
      ...ArrangementList_query @arguments(adminId: $adminId, customerId: $customerId, count: $count)
      ...ReimbursementList_query @arguments(arrangementId: $arrangementId, count: $count)
    }
  `, { arrangementId, adminId, customerId, count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Reimbursement" />
      <Section title="Reimbursement plans">
        {data.reimbursementPlans.length ? (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Plan</th><th scope="col">Administration</th><th scope="col">Mode</th><th scope="col">Components</th><th scope="col">Published</th></tr></thead>
            <tbody>{data.reimbursementPlans.map((p) => (
              <tr key={p.id}><td>{p.name}</td><td>{p.adminId}</td><td>{p.mode}</td><td>{p.components.join(', ')}</td><td><DateTime value={p.publishFrom} dateOnly /> – <DateTime value={p.publishUntil} dateOnly /></td></tr>
            ))}</tbody>
          </table></div>
        ) : <Empty>No reimbursement plans.</Empty>}
      </Section>
      <Section title="Reimbursement arrangements">
        {customerId ? <p className="chip">EVSE owner {customerId} <button type="button" onClick={() => setFilters({ customerId: null })}>Clear</button></p> : null}
        <ArrangementList query={data} />
      </Section>
      <Section title="Session reimbursements">
        {arrangementId ? <p className="chip">Arrangement {arrangementId} <button type="button" onClick={() => setFilters({ arrangementId: null })}>Clear</button></p> : null}
        <ReimbursementList query={data} />
      </Section>
    </>
  );
}

export function RoamingPage() {
  const data = useLazyLoadQuery<RoamingPageQuery>(graphql`
    query RoamingPageQuery {
      roamingPartners(first: 50) { edges { node { id databaseId name country cpoIds mspIds billingEmail } } }
      roamingConnections(first: 50) { edges { node { id } } }
      roamingAgreements(first: 50) { edges { node { id databaseId role partnerId connectionId validFrom validUntil defunct vatKind } } }
    }
  `, {}, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Roaming" />
      <Section title="Partners">
        {data.roamingPartners.edges.length ? (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Partner</th><th scope="col">Country</th><th scope="col">CPO ids</th><th scope="col">MSP ids</th></tr></thead>
            <tbody>{data.roamingPartners.edges.map(({ node: p }) => <tr key={p.id}><td>{p.name}</td><td>{p.country}</td><td>{p.cpoIds.join(', ')}</td><td>{p.mspIds.join(', ')}</td></tr>)}</tbody>
          </table></div>
        ) : <Empty>No roaming partners.</Empty>}
      </Section>
      <Section title="Agreements">
        {data.roamingAgreements.edges.length ? (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Role</th><th scope="col">Partner</th><th scope="col">Valid</th><th scope="col">VAT</th><th scope="col">State</th></tr></thead>
            <tbody>{data.roamingAgreements.edges.map(({ node: a }) => (
              <tr key={a.id}><td>{a.role}</td><td><code>{a.partnerId.slice(0, 8)}…</code></td><td><DateTime value={a.validFrom} dateOnly /> – <DateTime value={a.validUntil} dateOnly /></td><td>{a.vatKind}</td><td><Badge state={a.defunct ? 'defunct' : 'active'} /></td></tr>
            ))}</tbody>
          </table></div>
        ) : <Empty>No roaming agreements.</Empty>}
        <p className="muted">{data.roamingConnections.edges.length} roaming connection(s).</p>
      </Section>
    </>
  );
}

function WebhookList({ query }: { query: WebhookList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment WebhookList_query on Query
      @refetchable(queryName: "WebhookListPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      webhookSubscriptions(first: $count, after: $cursor) @connection(key: "WebhookList_webhookSubscriptions") {
        edges { node { id databaseId url kinds adminIds disabled disabledReason consecutiveFailures failingSince createdAt } }
      }
    }
  `, query);
  const edges = data.webhookSubscriptions.edges;
  if (!edges.length) return <Empty>No webhook subscriptions: subscribe a URL to event kinds (REST POST /main/v1/webhook-subscription or createWebhookSubscription).</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <thead><tr><th scope="col">URL</th><th scope="col">Kinds</th><th scope="col">State</th><th scope="col">Failures</th><th scope="col">Action</th></tr></thead>
        <tbody>{edges.map(({ node: w }) => (
          <tr key={w.id}>
            <td><code>{w.url}</code><div className="muted">{w.adminIds?.join(', ') ?? 'all administrations'}</div></td>
            <td>{w.kinds.join(', ')}</td>
            <td><Badge state={w.disabled ? 'disabled' : 'active'} />{w.disabledReason ? <div className="muted">{w.disabledReason}</div> : null}</td>
            <td>{w.consecutiveFailures}{w.failingSince ? <> since <DateTime value={w.failingSince} /></> : null}</td>
            <td><Link to={`/webhooks?deliveries=${encodeURIComponent(w.databaseId)}`}>Delivery log</Link>{' '}<ActionButton<WebhookToggleMutation> label={w.disabled ? 'Enable' : 'Disable'}
              explain={<p>{w.disabled ? 'Deliveries to' : 'No more deliveries to'} {w.url}{w.disabled ? ' start again.' : ' until enabled again.'}</p>}
              mutation={graphql`mutation WebhookToggleMutation($id: ID!, $disabled: Boolean!) { updateWebhookSubscription(id: $id, disabled: $disabled) { id disabled disabledReason } }`}
              variables={{ id: w.databaseId, disabled: !w.disabled }} /></td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

function DeliveryAttempts({ subscription }: { subscription: DeliveryLog_subscription$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment DeliveryLog_subscription on WebhookSubscription
      @refetchable(queryName: "DeliveryLogPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      deliveryAttempts(first: $count, after: $cursor) @connection(key: "DeliveryLog_deliveryAttempts") {
        edges { node { databaseId eventId attempt succeeded statusCode error durationMs attemptedAt } }
      }
    }
  `, subscription);
  const edges = data.deliveryAttempts.edges;
  if (!edges.length) return <Empty>No delivery attempts yet: each event sent to this subscription's URL is logged here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">Delivery attempts</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col" className="num">Duration</th></tr></thead>
        <tbody>{edges.map(({ node: a }) => (
          <tr key={a.databaseId}>
            <td><DateTime value={a.attemptedAt} /></td>
            <td><code>{a.eventId}</code></td>
            <td>{a.attempt}</td>
            <td><Badge state={a.succeeded ? 'delivered' : 'failed'} /> {a.statusCode ?? ''}{a.error ? <div className="muted">{a.error}</div> : null}</td>
            <td className="num">{a.durationMs} ms</td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} label="Later attempts" />
    </>
  );
}

function DeliveryLog({ subscriptionId }: { subscriptionId: string }) {
  const data = useLazyLoadQuery<DeliveryLogQuery>(graphql`
    query DeliveryLogQuery($id: ID!, $count: Int!) {
      node(id: $id) { ... on WebhookSubscription { url ...DeliveryLog_subscription @alias(as: "log") @arguments(count: $count) } }
    }
  `, { id: globalId('WebhookSubscription', subscriptionId), count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  const subscription = data.node && 'url' in data.node ? data.node : null;
  if (!subscription?.log) return <Empty>No webhook subscription you may see has the id {subscriptionId}.</Empty>;
  return <><p className="muted">Deliveries to <code>{subscription.url}</code></p><DeliveryAttempts subscription={subscription.log} /></>;
}

export function WebhooksPage() {
  const [filters, setFilters] = useFilters();
  const subscriptionId = filters.get('deliveries');
  const data = useLazyLoadQuery<WebhooksPageQuery>(graphql`
    query WebhooksPageQuery($count: Int!) { ...WebhookList_query @arguments(count: $count) }
  `, { count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Webhooks" />
      <Section title="Subscriptions"><WebhookList query={data} /></Section>
      <Section title="Delivery log">
        {subscriptionId ? (
          <>
            <p className="chip">Subscription {subscriptionId} <button type="button" onClick={() => setFilters({ deliveries: null })}>Clear</button></p>
            <DeliveryLog subscriptionId={subscriptionId} />
          </>
        ) : <Empty>Choose “Delivery log” of a subscription above to see its delivery attempts.</Empty>}
      </Section>
    </>
  );
}

export function AuditPage() {
  const [filters, setFilters] = useFilters();
  const data = useLazyLoadQuery<AuditPageQuery>(graphql`
    query AuditPageQuery($resourceId: String, $kind: String, $actor: String, $count: Int!) {
      ...AuditTrail_query @arguments(resourceId: $resourceId, kind: $kind, actor: $actor, count: $count)
    }
  `, { resourceId: filters.get('resourceId'), kind: filters.get('kind'), actor: filters.get('actor'), count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  const field = (name: string, label: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <input id={`f-${name}`} defaultValue={filters.get(name) ?? ''} placeholder={placeholder}
        onKeyDown={(e) => { if (e.key === 'Enter') setFilters({ [name]: e.currentTarget.value.trim() }); }} onBlur={(e) => setFilters({ [name]: e.target.value.trim() })} />
    </div>
  );
  return (
    <>
      <PageHeader title="Audit trail" subtitle="Every change, in commit order" />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        {field('resourceId', 'Record id', 'REST id')}
        {field('kind', 'Kind', 'customer')}
        {field('actor', 'By', 'public id')}
      </form>
      <AuditTable query={data} showResource />
    </>
  );
}
