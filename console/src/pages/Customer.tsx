import { Suspense, useState } from 'react';
import { CustomerForm } from '../components/CustomerForm.tsx';
import { graphql, useFragment, useLazyLoadQuery } from 'react-relay';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { useEntity } from '../components/EntityId.tsx';
import { Badge, DateTime, Empty, JsonBlock, Money, MoneyCell, Period } from '../components/format.tsx';
import { ActionButton, Facts, PageHeader, Section } from '../components/ui.tsx';
import { Link, path } from '../router.tsx';
import type { CustomerPageQuery } from '../__generated__/CustomerPageQuery.graphql.ts';
import type { CustomerAddresses_customer$key } from '../__generated__/CustomerAddresses_customer.graphql.ts';
import type { CustomerMandates_customer$key } from '../__generated__/CustomerMandates_customer.graphql.ts';
import type { CustomerSubscriptions_customer$key } from '../__generated__/CustomerSubscriptions_customer.graphql.ts';
import type { CustomerBoxesQuery } from '../__generated__/CustomerBoxesQuery.graphql.ts';
import type { CustomerBlockMutation } from '../__generated__/CustomerBlockMutation.graphql.ts';
import type { CustomerUnblockMutation } from '../__generated__/CustomerUnblockMutation.graphql.ts';

function Addresses({ customer }: { customer: CustomerAddresses_customer$key }) {
  const data = useFragment(graphql`
    fragment CustomerAddresses_customer on Customer {
      billingAddresses(first: 10) {
        edges { node { id databaseId addressee addressLine1 addressLine2 postalCode city region country billingPhone externalReference } }
      }
    }
  `, customer);
  const edges = data.billingAddresses.edges;
  return (
    <Section title="Billing addresses">
      {edges.length ? (
        <ul className="cards">
          {edges.map(({ node: a }) => (
            <li key={a.id} className="card">
              <address>
                {[a.addressee, a.addressLine1, a.addressLine2, [a.postalCode, a.city].filter(Boolean).join(' '), a.region, a.country].filter(Boolean).map((line, i) => <div key={i}>{line}</div>)}
              </address>
              {a.billingPhone ? <div>Phone {a.billingPhone}</div> : null}
              <div className="muted">{a.externalReference ?? a.databaseId}</div>
            </li>
          ))}
        </ul>
      ) : <Empty>No billing address: invoices need one (REST POST /main/v1/billing-address).</Empty>}
    </Section>
  );
}

function Mandates({ customer }: { customer: CustomerMandates_customer$key }) {
  const data = useFragment(graphql`
    fragment CustomerMandates_customer on Customer {
      directDebitMandates(first: 10) {
        edges { node { id databaseId bankAccountName iban bic mandateReference signedAt validFrom validUntil defunct } }
      }
    }
  `, customer);
  const edges = data.directDebitMandates.edges;
  return (
    <Section title="Direct debit mandates">
      {edges.length ? (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Reference</th><th scope="col">Account</th><th scope="col">IBAN</th><th scope="col">BIC</th><th scope="col">Valid from</th><th scope="col">Until</th><th scope="col">State</th></tr></thead>
          <tbody>{edges.map(({ node: m }) => (
            <tr key={m.id}>
              <td>{m.mandateReference ?? m.databaseId}</td><td>{m.bankAccountName}</td><td><code>{m.iban}</code></td><td>{m.bic ?? '—'}</td>
              <td><DateTime value={m.validFrom} dateOnly /></td><td><DateTime value={m.validUntil} dateOnly /></td>
              <td><Badge state={m.defunct ? 'defunct' : 'active'} /></td>
            </tr>
          ))}</tbody>
        </table></div>
      ) : <Empty>No direct debit mandate.</Empty>}
    </Section>
  );
}

function Subscriptions({ customer }: { customer: CustomerSubscriptions_customer$key }) {
  const data = useFragment(graphql`
    fragment CustomerSubscriptions_customer on Customer {
      subscriptions(first: 20) {
        edges { node {
          id databaseId externalReference validFrom validUntil defunct isValid monetaryCreditBalance
          administration { currency }
          plan { name }
          tokenLinks(first: 10) { edges { node { id databaseId evcoId validFrom validUntil defunct isCurrentlyValid token { evcoIdFormatted formFactor } } } }
        } }
      }
    }
  `, customer);
  const edges = data.subscriptions.edges;
  if (!edges.length) return <Section title="Subscriptions, tokens and links"><Empty>No token subscription.</Empty></Section>;
  return (
    <Section title="Subscriptions, tokens and links">
      {edges.map(({ node: s }) => (
        <article key={s.id} className="card">
          <h3>{s.plan.name} <span className="muted">{s.externalReference ?? s.databaseId}</span> <Badge state={s.defunct ? 'defunct' : s.isValid ? 'valid' : 'open'} /></h3>
          <Facts items={[
            ['Valid', <><DateTime value={s.validFrom} dateOnly /> – {s.validUntil ? <DateTime value={s.validUntil} dateOnly /> : 'open-ended'}</>],
            ['Monetary credit', <Money amount={s.monetaryCreditBalance} currency={s.administration.currency} />],
            ['Sessions', <Link to={`/sessions?subscriptionId=${encodeURIComponent(s.databaseId)}`}>Charge sessions of this subscription</Link>],
          ]} />
          {s.tokenLinks.edges.length ? (
            <div className="table-wrap"><table>
              <caption>Token links</caption>
              <thead><tr><th scope="col">Token</th><th scope="col">Form</th><th scope="col">From</th><th scope="col">Until</th><th scope="col">State</th></tr></thead>
              <tbody>{s.tokenLinks.edges.map(({ node: l }) => (
                <tr key={l.id}>
                  <td><Link to={path`/tokens/${l.evcoId}`}>{l.token?.evcoIdFormatted ?? l.evcoId}</Link></td>
                  <td>{l.token?.formFactor.toLowerCase() ?? '—'}</td>
                  <td><DateTime value={l.validFrom} dateOnly /></td><td><DateTime value={l.validUntil} dateOnly /></td>
                  <td><Badge state={l.defunct ? 'defunct' : l.isCurrentlyValid ? 'valid' : 'open'} /></td>
                </tr>
              ))}</tbody>
            </table></div>
          ) : <Empty>No token linked.</Empty>}
        </article>
      ))}
    </Section>
  );
}

function CustomerBoxes({ partyId }: { partyId: string }) {
  const data = useLazyLoadQuery<CustomerBoxesQuery>(graphql`
    query CustomerBoxesQuery($partyId: ID!) {
      billingBoxes(partyId: $partyId, first: 10) {
        edges { node { id databaseId state deferred invoiceCode periodFrom periodUntil currencyCode totalAmountExclVat totalAmountInclVat } }
      }
    }
  `, { partyId }, { fetchPolicy: 'store-and-network' });
  const edges = data.billingBoxes.edges;
  return (
    <Section title="Billing boxes">
      {edges.length ? (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Period</th><th scope="col">Number</th><th scope="col">State</th><th scope="col" className="num">Excl. VAT</th><th scope="col" className="num">Incl. VAT</th></tr></thead>
          <tbody>{edges.map(({ node: b }) => (
            <tr key={b.id}>
              <td><Link to={path`/billing/boxes/${b.databaseId}`}><Period from={b.periodFrom} until={b.periodUntil} /></Link></td>
              <td>{b.invoiceCode ?? <span className="muted">not numbered</span>}</td>
              <td><Badge state={b.state} />{b.deferred ? <Badge state="deferred" /> : null}</td>
              <MoneyCell amount={b.totalAmountExclVat} currency={b.currencyCode} />
              <MoneyCell amount={b.totalAmountInclVat} currency={b.currencyCode} />
            </tr>
          ))}</tbody>
        </table></div>
      ) : <Empty>No billing box: the customer's billable items of a period collect in one.</Empty>}
    </Section>
  );
}

export function CustomerPage({ id }: { id: string }) {
  const data = useLazyLoadQuery<CustomerPageQuery>(graphql`
    query CustomerPageQuery($id: ID!) {
      customer(id: $id) {
        id databaseId name externalReference adminId country entityType billingEmail billingPhone companyRegNum localeId
        reimbursementVat billingRollupGroupBy chargeAuthRequestsBlocked customFields createdAt updatedAt
        administration { name }
        ...CustomerAddresses_customer
        ...CustomerMandates_customer
        ...CustomerSubscriptions_customer
      }
    }
  `, { id }, { fetchPolicy: 'store-and-network' });
  const c = data.customer;
  const [editing, setEditing] = useState(false);
  useEntity(c ? { type: 'Customer', restId: c.databaseId, restPath: `/customer/${c.databaseId}` } : null);
  if (!c) return <><PageHeader title="Customer not found" /><Empty>No customer you may see has the id or external reference “{id.replace(/^ext_ref\./, '')}”.</Empty></>;
  return (
    <>
      <PageHeader
        title={c.name}
        badges={c.chargeAuthRequestsBlocked ? <Badge state="blocked" /> : <Badge state="active" />}
        subtitle={<>Customer {c.externalReference ?? c.databaseId} · {c.administration.name} · press Shift+Y for its id</>}
        actions={<>
          <button type="button" onClick={() => setEditing(true)}>Edit customer</button>
          {c.chargeAuthRequestsBlocked ? (
          <ActionButton<CustomerUnblockMutation> label="Unblock charging" explain={<p>Charge authorization requests of {c.name}'s tokens are answered again.</p>}
            mutation={graphql`mutation CustomerUnblockMutation($id: ID!) { unblockCustomerChargeAuthRequests(id: $id) { id chargeAuthRequestsBlocked } }`}
            variables={{ id: c.databaseId }} />
        ) : (
          <ActionButton<CustomerBlockMutation> label="Block charging" danger explain={<p>Charge authorization requests of all of {c.name}'s tokens are refused until unblocked.</p>}
            mutation={graphql`mutation CustomerBlockMutation($id: ID!) { blockCustomerChargeAuthRequests(id: $id) { id chargeAuthRequestsBlocked } }`}
            variables={{ id: c.databaseId }} />
          )}
        </>}
      />
      {editing ? (
        <CustomerForm customerId={c.databaseId} onClose={() => setEditing(false)} onSaved={() => setEditing(false)}
          initial={{ name: c.name, externalReference: c.externalReference, country: c.country, entityType: c.entityType === 'ORGANISATION' ? 'ORGANISATION' : 'PERSON',
            billingEmail: c.billingEmail, billingPhone: c.billingPhone, companyRegNum: c.companyRegNum, localeId: c.localeId }} />
      ) : null}
      <Section title="Details">
        <Facts items={[
          ['Administration', c.adminId], ['Country', c.country], ['Type', c.entityType.toLowerCase()], ['Billing e-mail', c.billingEmail],
          ['Billing phone', c.billingPhone], ['Company registration', c.companyRegNum], ['Locale', c.localeId],
          ['Reimbursement VAT', c.reimbursementVat.toLowerCase()], ['Roll-up', c.billingRollupGroupBy?.toLowerCase()],
          ['Created', <DateTime value={c.createdAt} />], ['Updated', <DateTime value={c.updatedAt} />],
        ]} />
        {c.customFields && Object.keys(c.customFields as object).length ? <><h3>Custom fields</h3><JsonBlock value={c.customFields} /></> : null}
      </Section>
      <Addresses customer={c} />
      <Mandates customer={c} />
      <Subscriptions customer={c} />
      <Suspense fallback={<p className="loading">Loading billing boxes…</p>}><CustomerBoxes partyId={c.databaseId} /></Suspense>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={c.databaseId} /></Suspense>
    </>
  );
}
