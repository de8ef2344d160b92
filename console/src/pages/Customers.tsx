import { useState, type FormEvent } from 'react';
import { graphql, useFragment, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { CustomerForm } from '../components/CustomerForm.tsx';
import { useAdminFilter } from '../components/Layout.tsx';
import { Badge, Empty } from '../components/format.tsx';
import { LoadMore, PAGE_SIZE, PageHeader } from '../components/ui.tsx';
import { Link, path, useRouter } from '../router.tsx';
import type { CustomersPageQuery } from '../__generated__/CustomersPageQuery.graphql.ts';
import type { CustomerList_query$key } from '../__generated__/CustomerList_query.graphql.ts';
import type { CustomerRow_customer$key } from '../__generated__/CustomerRow_customer.graphql.ts';

/** What the find box takes: a REST id as is, anything else as an external reference. */
export function customerKey(value: string): string {
  const v = value.trim();
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) || v.startsWith('ext_ref.') ? v : `ext_ref.${v}`;
}

function CustomerRow({ customer }: { customer: CustomerRow_customer$key }) {
  const c = useFragment(graphql`
    fragment CustomerRow_customer on Customer {
      databaseId name externalReference country entityType adminId chargeAuthRequestsBlocked
    }
  `, customer);
  return (
    <tr>
      <td><Link to={path`/customers/${c.databaseId}`}>{c.name}</Link></td>
      <td>{c.externalReference ?? <span className="muted">—</span>}</td>
      <td>{c.adminId}</td>
      <td>{c.country}</td>
      <td>{c.entityType.toLowerCase()}</td>
      <td>{c.chargeAuthRequestsBlocked ? <Badge state="blocked" /> : <Badge state="active" />}</td>
    </tr>
  );
}

function CustomerList({ query }: { query: CustomerList_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(graphql`
    fragment CustomerList_query on Query
      @refetchable(queryName: "CustomerListPaginationQuery")
      @argumentDefinitions(adminId: { type: "ID" }, count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
      customers(adminId: $adminId, first: $count, after: $cursor) @connection(key: "CustomerList_customers", filters: ["adminId"]) {
        edges { node { id ...CustomerRow_customer } }
      }
    }
  `, query);
  const edges = data.customers.edges;
  if (!edges.length) return <Empty>No customers yet. Customers created over REST (POST /main/v1/customer) or GraphQL (createCustomer) appear here.</Empty>;
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Customers</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">External reference</th><th scope="col">Administration</th><th scope="col">Country</th><th scope="col">Type</th><th scope="col">Charging</th></tr></thead>
          <tbody>{edges.map((edge) => <CustomerRow key={edge.node.id} customer={edge.node} />)}</tbody>
        </table>
      </div>
      <LoadMore hasNext={hasNext} isLoadingNext={isLoadingNext} loadNext={loadNext} />
    </>
  );
}

export function CustomersPage() {
  const { adminId, administrations } = useAdminFilter();
  const { navigate } = useRouter();
  const [find, setFind] = useState('');
  const [creating, setCreating] = useState(false);
  const data = useLazyLoadQuery<CustomersPageQuery>(graphql`
    query CustomersPageQuery($adminId: ID, $count: Int!) {
      ...CustomerList_query @arguments(adminId: $adminId, count: $count)
    }
  `, { adminId, count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (find.trim()) navigate(path`/customers/${customerKey(find)}`);
  };
  return (
    <>
      <PageHeader title="Customers" subtitle={adminId ? `Administration ${adminId}` : 'All administrations you see'}
        actions={<button type="button" className="primary" onClick={() => setCreating(true)}>New customer</button>} />
      {creating ? (
        <CustomerForm administrations={administrations} onClose={() => setCreating(false)} onSaved={(id) => navigate(path`/customers/${id}`)}
          initial={{ adminId: adminId ?? administrations[0]?.databaseId ?? null, name: '', country: '', entityType: 'PERSON' }} />
      ) : null}
      <form className="filters" onSubmit={submit}>
        <div className="field">
          <label htmlFor="customer-find">Find a customer by external reference or id</label>
          <input id="customer-find" value={find} onChange={(e) => setFind(e.target.value)} placeholder="CUST-1001" />
        </div>
        <button type="submit">Find customer</button>
      </form>
      <CustomerList query={data} />
    </>
  );
}
