import { Suspense } from 'react';
import { graphql, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { useEntity } from '../components/EntityId.tsx';
import { Badge, DateTime, Empty } from '../components/format.tsx';
import { ActionButton, Facts, LoadMore, PAGE_SIZE, PageHeader, Section } from '../components/ui.tsx';
import { Link, path, useFilters } from '../router.tsx';
import type { TokensPageQuery } from '../__generated__/TokensPageQuery.graphql.ts';
import type { TokenList_query$key } from '../__generated__/TokenList_query.graphql.ts';
import type { TokenPageQuery } from '../__generated__/TokenPageQuery.graphql.ts';
import type { TokenBlockMutation } from '../__generated__/TokenBlockMutation.graphql.ts';
import type { TokenUnblockMutation } from '../__generated__/TokenUnblockMutation.graphql.ts';

function TokenList({ query }: { query: TokenList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment TokenList_query on Query
      @refetchable(queryName: "TokenListPaginationQuery")
      @argumentDefinitions(used: { type: "Boolean" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      tokens(used: $used, first: $count, after: $cursor) @connection(key: "TokenList_tokens", filters: ["used"]) {
        edges { node { id evcoId evcoIdFormatted formFactor fulfilment currentAdminId isCurrentlyValid chargeAuthRequestsBlocked used } }
      }
    }
  `, query);
  if (!data.tokens.edges.length) return <Empty>No tokens match: tokens of series and virtual tokens appear here.</Empty>;
  return (
    <>
      <div className="table-wrap"><table>
        <caption className="visually-hidden">Tokens</caption>
        <thead><tr><th scope="col">EVCO id</th><th scope="col">Form</th><th scope="col">Administration</th><th scope="col">Fulfilment</th><th scope="col">State</th></tr></thead>
        <tbody>{data.tokens.edges.map(({ node: t }) => (
          <tr key={t.id}>
            <td><Link to={path`/tokens/${t.evcoId}`}>{t.evcoIdFormatted}</Link></td><td>{t.formFactor.toLowerCase()}</td><td>{t.currentAdminId}</td><td>{t.fulfilment.toLowerCase()}</td>
            <td>{t.chargeAuthRequestsBlocked ? <Badge state="blocked" /> : <Badge state={t.isCurrentlyValid ? 'valid' : t.used ? 'defunct' : 'open'} />}</td>
          </tr>
        ))}</tbody>
      </table></div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function TokensPage() {
  const [filters, setFilters] = useFilters();
  const used = filters.get('used') === 'true' ? true : filters.get('used') === 'false' ? false : null;
  const data = useLazyLoadQuery<TokensPageQuery>(graphql`
    query TokensPageQuery($used: Boolean, $count: Int!) { ...TokenList_query @arguments(used: $used, count: $count) }
  `, { used, count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return (
    <>
      <PageHeader title="Tokens & subscriptions" subtitle="Subscriptions show on their customer's page" />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="f-used">Linked</label>
          <select id="f-used" value={used === null ? '' : String(used)} onChange={(e) => setFilters({ used: e.target.value })}>
            <option value="">Any</option><option value="true">Linked to a subscription</option><option value="false">Never linked</option>
          </select>
        </div>
      </form>
      <TokenList query={data} />
    </>
  );
}

export function TokenPage({ evcoId }: { evcoId: string }) {
  const data = useLazyLoadQuery<TokenPageQuery>(graphql`
    query TokenPageQuery($evcoId: String!) {
      token(evcoId: $evcoId) {
        id evcoId evcoIdFormatted formFactor fulfilment uid uidType brandCode vehicleVin activatedAt currentAdminId isCurrentlyValid chargeAuthRequestsBlocked
        series { name }
        links(first: 20) { edges { node { id databaseId validFrom validUntil defunct isCurrentlyValid subscription { databaseId externalReference plan { name } customer { databaseId name } } } } }
      }
    }
  `, { evcoId }, { fetchPolicy: 'store-and-network' });
  const t = data.token;
  useEntity(t ? { type: 'Token', restId: t.evcoId, restPath: `/msp-token/${t.evcoId}` } : null);
  if (!t) return <><PageHeader title="Token not found" /><Empty>No token you may see has the EVCO id {evcoId}.</Empty></>;
  return (
    <>
      <PageHeader title={<>Token {t.evcoIdFormatted}</>} badges={t.chargeAuthRequestsBlocked ? <Badge state="blocked" /> : <Badge state={t.isCurrentlyValid ? 'valid' : 'open'} />}
        subtitle="press Shift+Y for its id"
        actions={t.chargeAuthRequestsBlocked
          ? <ActionButton<TokenUnblockMutation> label="Unblock charging" explain={<p>Charge authorization requests of {t.evcoIdFormatted} are answered again.</p>}
              mutation={graphql`mutation TokenUnblockMutation($evcoId: String!) { unblockTokenChargeAuthRequests(evcoId: $evcoId) { id chargeAuthRequestsBlocked } }`} variables={{ evcoId: t.evcoId }} />
          : <ActionButton<TokenBlockMutation> label="Block charging" danger explain={<p>Charge authorization requests of {t.evcoIdFormatted} are refused until unblocked.</p>}
              mutation={graphql`mutation TokenBlockMutation($evcoId: String!) { blockTokenChargeAuthRequests(evcoId: $evcoId) { id chargeAuthRequestsBlocked } }`} variables={{ evcoId: t.evcoId }} />} />
      <Section title="Details">
        <Facts items={[['Form factor', t.formFactor.toLowerCase()], ['Fulfilment', t.fulfilment.toLowerCase()], ['UID', t.uid], ['UID type', t.uidType?.toLowerCase()], ['Brand', t.brandCode],
          ['Series', t.series?.name], ['Vehicle VIN', t.vehicleVin], ['Activated', <DateTime value={t.activatedAt} />], ['Administration', t.currentAdminId]]} />
      </Section>
      <Section title="Links to subscriptions">
        {t.links.edges.length ? (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Customer</th><th scope="col">Subscription</th><th scope="col">From</th><th scope="col">Until</th><th scope="col">State</th></tr></thead>
            <tbody>{t.links.edges.map(({ node: l }) => (
              <tr key={l.id}>
                <td>{l.subscription.customer ? <Link to={path`/customers/${l.subscription.customer.databaseId}`}>{l.subscription.customer.name}</Link> : '—'}</td>
                <td>{l.subscription.plan.name} <span className="muted">{l.subscription.externalReference ?? l.subscription.databaseId}</span></td>
                <td><DateTime value={l.validFrom} dateOnly /></td><td><DateTime value={l.validUntil} dateOnly /></td>
                <td><Badge state={l.defunct ? 'defunct' : l.isCurrentlyValid ? 'valid' : 'open'} /></td>
              </tr>
            ))}</tbody>
          </table></div>
        ) : <Empty>Never linked to a subscription.</Empty>}
      </Section>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={t.evcoId} /></Suspense>
    </>
  );
}
