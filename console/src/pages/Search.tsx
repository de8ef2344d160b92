import { useEffect, useState } from 'react';
import { fetchQuery, graphql, useRelayEnvironment } from 'react-relay';
import { Empty } from '../components/format.tsx';
import { PageHeader } from '../components/ui.tsx';
import { globalId } from '../relay/environment.ts';
import { Link, path, useFilters } from '../router.tsx';
import { customerKey } from './Customers.tsx';
import type { SearchCustomerQuery } from '../__generated__/SearchCustomerQuery.graphql.ts';
import type { SearchCustomerNameQuery } from '../__generated__/SearchCustomerNameQuery.graphql.ts';
import type { SearchTokenQuery } from '../__generated__/SearchTokenQuery.graphql.ts';
import type { SearchNodeQuery } from '../__generated__/SearchNodeQuery.graphql.ts';

interface Hit { to: string; label: string; kind: string }

const customerQuery = graphql`query SearchCustomerQuery($id: ID!) { customer(id: $id) { databaseId name externalReference } }`;
const nameQuery = graphql`query SearchCustomerNameQuery($name: String!) {
  customers(nameContains: $name, first: 20) { edges { node { databaseId name externalReference adminId } } }
}`;
const tokenQuery = graphql`query SearchTokenQuery($evcoId: String!) { token(evcoId: $evcoId) { evcoId evcoIdFormatted } }`;
const nodeQuery = graphql`query SearchNodeQuery($ids: [ID!]!) {
  nodes(ids: $ids) {
    __typename
    ... on ChargeSession { databaseId sessionId }
    ... on BillingBox { databaseId invoiceCode partyName }
    ... on DropoutCase { databaseId reason }
    ... on ReimbursementArrangement { databaseId externalReference }
  }
}`;

/** Looks the term up as a customer (id or external reference), an EVCO id and a record id; each look-up on its own. */
export function SearchPage() {
  const [filters] = useFilters();
  const q = (filters.get('q') ?? '').trim();
  const environment = useRelayEnvironment();
  const [hits, setHits] = useState<Hit[] | null>(null);
  useEffect(() => {
    let live = true;
    setHits(null);
    const quiet = <T,>(promise: Promise<T>) => promise.catch(() => undefined);
    const uuid = /^[0-9a-f-]{36}$/i.test(q);
    void Promise.all([
      quiet(fetchQuery<SearchCustomerQuery>(environment, customerQuery, { id: customerKey(q) }).toPromise()),
      quiet(fetchQuery<SearchTokenQuery>(environment, tokenQuery, { evcoId: q }).toPromise()),
      q.length >= 3 ? quiet(fetchQuery<SearchCustomerNameQuery>(environment, nameQuery, { name: q }).toPromise()) : undefined,
      uuid ? quiet(fetchQuery<SearchNodeQuery>(environment, nodeQuery, { ids: ['ChargeSession', 'BillingBox', 'DropoutCase', 'ReimbursementArrangement'].map((t) => globalId(t, q)) }).toPromise()) : undefined,
    ]).then(([customer, token, named, nodes]) => {
      if (!live) return;
      const found: Hit[] = [];
      if (customer?.customer) found.push({ kind: 'Customer', label: `${customer.customer.name} (${customer.customer.externalReference ?? customer.customer.databaseId})`, to: path`/customers/${customer.customer.databaseId}` });
      for (const { node: c } of named?.customers.edges ?? []) {
        if (c.databaseId !== customer?.customer?.databaseId) found.push({ kind: 'Customer', label: `${c.name} (${c.externalReference ?? c.databaseId}, ${c.adminId})`, to: path`/customers/${c.databaseId}` });
      }
      if (token?.token) found.push({ kind: 'Token', label: token.token.evcoIdFormatted, to: path`/tokens/${token.token.evcoId}` });
      for (const node of nodes?.nodes ?? []) {
        if (node?.__typename === 'ChargeSession') found.push({ kind: 'Charge session', label: node.sessionId, to: path`/sessions/${node.databaseId}` });
        if (node?.__typename === 'BillingBox') found.push({ kind: 'Billing box', label: `${node.invoiceCode ?? 'not numbered'} ${node.partyName ?? ''}`, to: path`/billing/boxes/${node.databaseId}` });
        if (node?.__typename === 'ReimbursementArrangement') found.push({ kind: 'Reimbursement arrangement', label: node.externalReference ?? node.databaseId, to: path`/reimbursement/arrangements/${node.databaseId}` });
        if (node?.__typename === 'DropoutCase') found.push({ kind: 'Drop-out case', label: node.reason, to: `/dropouts?reason=${encodeURIComponent(node.reason)}` });
      }
      setHits(found);
    });
    return () => { live = false; };
  }, [q, environment]);
  return (
    <>
      <PageHeader title={`Search: ${q}`} />
      {hits === null ? <p className="loading" aria-busy="true">Searching…</p> : hits.length ? (
        <ul className="plain">{hits.map((h) => <li key={h.to}><span className="muted">{h.kind}</span> <Link to={h.to}>{h.label}</Link></li>)}</ul>
      ) : <Empty>No customer name contains this text (names need at least 3 characters), and nothing has this id, external reference or EVCO id.</Empty>}
    </>
  );
}
