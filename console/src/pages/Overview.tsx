import { graphql, useLazyLoadQuery } from 'react-relay';
import { Badge, countsText, Empty } from '../components/format.tsx';
import { Facts, PageHeader, Section } from '../components/ui.tsx';
import { Link, path } from '../router.tsx';
import type { OverviewPageQuery } from '../__generated__/OverviewPageQuery.graphql.ts';
import type { AboutPageQuery } from '../__generated__/AboutPageQuery.graphql.ts';

export function OverviewPage() {
  const data = useLazyLoadQuery<OverviewPageQuery>(graphql`
    query OverviewPageQuery {
      instance { name productVersion roamingEnabled }
      administrations { databaseId name country currency sellerName }
      openDropouts: dropoutCases(status: OPEN, first: 5) { edges { node { id databaseId reason sessionCount side } } pageInfo { hasNextPage } }
      reviewSets: billingReviewSets(first: 5) { edges { node { id databaseId code state boxCounts { open closed approved ready finalized } } } }
      received: chargeSessions(status: RECEIVED, first: 1) { edges { node { id } } }
    }
  `, {}, { fetchPolicy: 'store-and-network' });
  const dropouts = data.openDropouts.edges;
  return (
    <>
      <PageHeader title={data.instance.name} subtitle={`Version ${data.instance.productVersion}`} />
      <div className="grid">
        <Section title="Administrations">
          <ul className="plain">{data.administrations.map((a) => <li key={a.databaseId}><strong>{a.name}</strong> <span className="muted">{a.databaseId} · {a.country} · {a.currency}{a.sellerName ? ` · ${a.sellerName}` : ''}</span></li>)}</ul>
          <Facts items={[['Roaming calculation', data.instance.roamingEnabled ? 'on' : 'off'], ['Sessions waiting for the pipeline', data.received.edges.length ? 'yes' : 'none']]} />
        </Section>
        <Section title="Open drop-outs">
          {dropouts.length ? (
            <ul className="plain">
              {dropouts.map(({ node: d }) => <li key={d.id}><Link to={`/dropouts?reason=${encodeURIComponent(d.reason)}`}>{d.reason}</Link> <span className="muted">{d.side} · {d.sessionCount} sessions</span></li>)}
              {data.openDropouts.pageInfo.hasNextPage ? <li><Link to="/dropouts">All open drop-outs</Link></li> : null}
            </ul>
          ) : <Empty>None: every session went through.</Empty>}
        </Section>
        <Section title="Billing">
          {data.reviewSets.edges.length ? (
            <ul className="plain">{data.reviewSets.edges.map(({ node: s }) => (
              <li key={s.id}><Link to={path`/billing/review-sets/${s.databaseId}`}>{s.code}</Link> <Badge state={s.state} /> <span className="muted">{countsText(s.boxCounts)}</span></li>
            ))}</ul>
          ) : <Empty>No review sets yet.</Empty>}
        </Section>
      </div>
    </>
  );
}

export function AboutPage() {
  const data = useLazyLoadQuery<AboutPageQuery>(graphql`
    query AboutPageQuery { instance { name productVersion roamingEnabled } }
  `, {}, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="About" />
      <Section title="This instance">
        <Facts items={[
          ['Name', data.instance.name],
          ['Version', <strong data-testid="product-version">{data.instance.productVersion}</strong>],
          ['Roaming calculation', data.instance.roamingEnabled ? 'on' : 'off'],
          ['REST API', <code>/main/v1</code>], ['OpenAPI', <a href="/main/v1/openapi.json">/main/v1/openapi.json</a>],
          ['GraphQL', <a href="/graphql">/graphql</a>],
        ]} />
      </Section>
      <Section title="Keyboard">
        <p>On a page of one record, <kbd>Shift</kbd>+<kbd>Y</kbd> shows its id (the one REST paths take) with a copy button.</p>
      </Section>
    </>
  );
}
