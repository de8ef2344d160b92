import { Suspense, useEffect, useState } from 'react';
import { graphql, useFragment, useLazyLoadQuery } from 'react-relay';
import { authorizationHeader, loadCredential } from '../auth.ts';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { useEntity } from '../components/EntityId.tsx';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { Badge, DateTime, Empty, MoneyCell, Period } from '../components/format.tsx';
import { ActionButton, Facts, PageHeader, Section } from '../components/ui.tsx';
import { Link, path } from '../router.tsx';
import type { BillingBoxPageQuery } from '../__generated__/BillingBoxPageQuery.graphql.ts';
import type { Rollup_rollup$key } from '../__generated__/Rollup_rollup.graphql.ts';
import type { BoxCloseMutation } from '../__generated__/BoxCloseMutation.graphql.ts';
import type { BoxApproveMutation } from '../__generated__/BoxApproveMutation.graphql.ts';
import type { BoxDeferMutation } from '../__generated__/BoxDeferMutation.graphql.ts';
import type { BoxUndeferMutation } from '../__generated__/BoxUndeferMutation.graphql.ts';
import type { BoxReopenMutation } from '../__generated__/BoxReopenMutation.graphql.ts';
import type { BoxFinalizeMutation } from '../__generated__/BoxFinalizeMutation.graphql.ts';
import type { BoxTransferredMutation } from '../__generated__/BoxTransferredMutation.graphql.ts';


function Rollup({ rollup, currency }: { rollup: Rollup_rollup$key; currency: string }) {
  const r = useFragment(graphql`
    fragment Rollup_rollup on BillingRollup {
      databaseId productCategory groupValue context itemCount vatKind vatPercentage subtotalExclVat vatAmount subtotalInclVat volume { unit volume } averageAmountPerKwhExclTax
      items(first: 50) { databaseId description occurredAt quantity unit amountExclVat vatPercentage sourceKind subItems { kind label volume unit amountExclVat } chargeSession { databaseId sessionId } }
    }
  `, rollup);
  const volume = r.volume.map((v) => `${v.volume} ${v.unit}`).join(', ');
  return (
    <article className="card rollup">
      <h3>{r.productCategory.replace(/_/g, ' ')}{r.groupValue ? ` · ${r.groupValue}` : ''} <span className="muted">{r.itemCount} items · {volume} · VAT {r.vatKind} {r.vatPercentage} %</span></h3>
      <div className="table-wrap"><table>
        <thead><tr><th scope="col">Item</th><th scope="col">Date</th><th scope="col">Lines</th><th scope="col" className="num">Quantity</th><th scope="col" className="num">Excl. VAT</th></tr></thead>
        <tbody>{r.items.map((item) => (
          <tr key={item.databaseId}>
            <td>{item.chargeSession ? <Link to={path`/sessions/${item.chargeSession.databaseId}`}>{item.description}</Link> : item.description}</td>
            <td><DateTime value={item.occurredAt} dateOnly /></td>
            <td className="sub-items">{item.subItems.map((s, i) => <div key={i}>{s.label || s.kind}: {s.volume} {s.unit} → {s.amountExclVat}</div>)}</td>
            <td className="num">{item.quantity} {item.unit}</td>
            <MoneyCell amount={item.amountExclVat} currency={currency} />
          </tr>
        ))}</tbody>
        <tfoot>
          <tr><th scope="row" colSpan={4}>Subtotal excl. VAT</th><MoneyCell amount={r.subtotalExclVat} currency={currency} /></tr>
          <tr><th scope="row" colSpan={4}>VAT</th><MoneyCell amount={r.vatAmount} currency={currency} /></tr>
          <tr><th scope="row" colSpan={4}>Subtotal incl. VAT</th><MoneyCell amount={r.subtotalInclVat} currency={currency} /></tr>
        </tfoot>
      </table></div>
      {r.itemCount > r.items.length ? <p className="muted">The first {r.items.length} of {r.itemCount} items (REST: GET /main/v1/billing-box/…/item lists all).</p> : null}
    </article>
  );
}

/**
 * The REST document download needs the credential: fetched with its header, as a blob. Only a PDF is
 * opened in a tab: a blob is a page of the console's own origin, and an uploaded XML could be XHTML
 * with script, which the service answers as a sandboxed download (found by probing, 2026-11-29).
 * Anything else is downloaded as bytes.
 */
function DocumentLink({ boxId, document }: { boxId: string; document: { readonly filename: string; readonly contentType: string; readonly size: number; readonly primary: boolean; readonly draft: boolean } }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fetchBlob = async (): Promise<string | null> => {
    const credential = loadCredential();
    if (!credential) return null;
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/main/v1/billing-box/${encodeURIComponent(boxId)}/document/${encodeURIComponent(document.filename)}`, { headers: { authorization: authorizationHeader(credential) }, credentials: 'omit' });
      if (!response.ok) {
        const body = await response.json().catch(() => ({})) as { message?: string; param?: string; code?: string };
        throw Object.assign(new Error(body.message ?? `HTTP ${response.status}`), {});
      }
      const bytes = await response.arrayBuffer();
      const shown = document.contentType === 'application/pdf';
      return URL.createObjectURL(new Blob([bytes], { type: shown ? 'application/pdf' : 'application/octet-stream' }));
    } catch (caught) {
      setError(caught);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const open = async () => {
    const url = await fetchBlob();
    if (!url) return;
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  const download = async () => {
    const url = await fetchBlob();
    if (!url) return;
    const a = window.document.createElement('a');
    a.href = url;
    a.download = document.filename;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  const kind = document.contentType === 'application/pdf' ? 'PDF' : document.contentType.includes('xml') ? 'UBL' : document.contentType;
  return (
    <li>
      <strong>{kind}</strong> {document.filename} <span className="muted">({document.size.toLocaleString('en')} bytes{document.primary ? ', primary' : ''}{document.draft ? ', draft' : ''})</span>{' '}
      {kind === 'PDF' ? <><button type="button" onClick={open} disabled={busy}>Open {kind}</button>{' '}</> : null}
      <button type="button" onClick={download} disabled={busy}>Download {kind}</button>
      {error ? <ErrorBox error={error} title="The document could not be fetched" /> : null}
    </li>
  );
}

export function BillingBoxPage({ id }: { id: string }) {
  const [fetchKey, setFetchKey] = useState(0);
  const [polls, setPolls] = useState(0);
  const data = useLazyLoadQuery<BillingBoxPageQuery>(graphql`
    query BillingBoxPageQuery($id: ID!) {
      billingBox(id: $id) {
        id databaseId adminId partyId partyName partyExternalReference state deferred transferred invoiceCode invoiceDate documentKind
        currencyCode totalAmountExclVat totalVatAmount totalAmountInclVat
        vatBreakdown { vatKind vatCategory vatPercentage taxableAmount vatAmount }
        documents { filename contentType size primary draft }
        periodFrom periodUntil reviewSetId
        seriesCode paymentMethod paymentPeriod billingReference rollupGroupBy vatCountry
        rollups { databaseId ...Rollup_rollup }
      }
    }
  `, { id }, { fetchPolicy: fetchKey ? 'network-only' : 'store-and-network', fetchKey });
  const b = data.billingBox;
  useEntity(b ? { type: 'Billing box', restId: b.databaseId, restPath: `/billing-box/${b.databaseId}` } : null);
  // An approved box becomes ready once its documents are rendered (a job): look again for a while.
  const waiting = b?.state === 'APPROVED' && polls < 30;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => { setPolls((n) => n + 1); setFetchKey((k) => k + 1); }, 1000);
    return () => clearTimeout(timer);
  }, [waiting, polls]);
  if (!b) return <><PageHeader title="Billing box not found" /><Empty>No billing box you may see has the id {id}.</Empty></>;
  const refresh = () => { setPolls(0); setFetchKey((k) => k + 1); };
  const v = { id: b.databaseId };
  const party = b.partyName ?? b.partyId;
  const docs = b.documents;
  const vat = b.vatBreakdown;
  return (
    <>
      <p className="crumbs"><Link to="/billing">Billing</Link> › <Link to={path`/billing/review-sets/${b.reviewSetId}`}>review set</Link> › {party}</p>
      <PageHeader title={<>Box {b.invoiceCode ?? 'not numbered'} · {party}</>}
        badges={<><Badge state={b.state} />{b.deferred ? <> <Badge state="deferred" /></> : null}{b.transferred ? <> <Badge state="transferred" /></> : null}</>}
        subtitle={<><Period from={b.periodFrom} until={b.periodUntil} /> · press Shift+Y for its id</>}
        actions={<>
          {b.state === 'OPEN' ? <ActionButton<BoxCloseMutation> label="Close" explain={<p>No new items enter the box of {party}; it can then be approved.</p>}
            mutation={graphql`mutation BoxCloseMutation($id: ID!) { closeBillingBox(id: $id) { id state deferred } }`} variables={v} onDone={refresh} /> : null}
          {b.state === 'CLOSED' && !b.deferred ? <ActionButton<BoxApproveMutation> label="Approve" primary explain={<p>Approves {party}'s box of {b.totalAmountInclVat} {b.currencyCode} incl. VAT; its documents are rendered, then it can be finalized.</p>}
            mutation={graphql`mutation BoxApproveMutation($id: ID!) { approveBillingBox(id: $id) { id state } }`} variables={v} onDone={refresh} /> : null}
          {b.state === 'CLOSED' && !b.deferred ? <ActionButton<BoxDeferMutation> label="Defer" explain={<p>The box is left out of this period's approval until the mark is cleared.</p>}
            mutation={graphql`mutation BoxDeferMutation($id: ID!) { deferBillingBox(id: $id) { id state deferred } }`} variables={v} onDone={refresh} /> : null}
          {b.deferred ? <ActionButton<BoxUndeferMutation> label="Undefer" explain={<p>Clears the deferred mark: the box can be approved again.</p>}
            mutation={graphql`mutation BoxUndeferMutation($id: ID!) { undeferBillingBox(id: $id) { id state deferred } }`} variables={v} onDone={refresh} /> : null}
          {b.state === 'READY' ? <ActionButton<BoxFinalizeMutation> label="Finalize" primary title="Finalize this box?" explain={<p>Gives {party}'s box its invoice number and date and renders the final PDF and UBL. A finalized box cannot be reopened; corrections go into a credit note.</p>}
            mutation={graphql`mutation BoxFinalizeMutation($id: ID!) { finalizeBillingBox(id: $id) { id state invoiceCode documents { filename contentType size primary draft } } }`} variables={v} onDone={refresh} /> : null}
          {b.state === 'CLOSED' || b.state === 'APPROVED' || b.state === 'READY' ? <ActionButton<BoxReopenMutation> label="Reopen" explain={<p>The box is open again: items can enter it and it must be closed and approved again.</p>}
            mutation={graphql`mutation BoxReopenMutation($id: ID!) { reopenBillingBox(id: $id) { id state } }`} variables={v} onDone={refresh} /> : null}
          {b.state === 'FINALIZED' && !b.transferred ? <ActionButton<BoxTransferredMutation> label="Mark transferred" explain={<p>Records that the invoice was handed to the accounting system.</p>}
            mutation={graphql`mutation BoxTransferredMutation($id: ID!) { markBillingBoxTransferred(id: $id) { id transferred } }`} variables={v} onDone={refresh} /> : null}
          <button type="button" onClick={refresh}>Refresh</button>
        </>} />
      {waiting ? <p role="status" className="notice">Rendering the documents…</p> : null}
      <Section title="Totals">
        <div className="table-wrap"><table className="totals">
          <tbody>
            <tr><th scope="row">Excl. VAT</th><MoneyCell amount={b.totalAmountExclVat} currency={b.currencyCode} /></tr>
            <tr><th scope="row">VAT</th><MoneyCell amount={b.totalVatAmount} currency={b.currencyCode} /></tr>
            <tr><th scope="row">Incl. VAT</th><MoneyCell amount={b.totalAmountInclVat} currency={b.currencyCode} /></tr>
          </tbody>
        </table></div>
        <Facts items={[['Administration', b.adminId], ['Series', b.seriesCode], ['Invoice date', b.invoiceDate], ['Document', b.documentKind], ['Payment', b.paymentMethod],
          ['Payment period', b.paymentPeriod ? `${b.paymentPeriod} days` : null], ['Roll-up', b.rollupGroupBy], ['VAT country', b.vatCountry],
          ['Party', <Link to={path`/customers/${b.partyId}`}>{party}</Link>]]} />
      </Section>
      <Section title="VAT breakdown">
        {vat.length ? (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Category</th><th scope="col" className="num">Rate</th><th scope="col" className="num">Taxable</th><th scope="col" className="num">VAT</th></tr></thead>
            <tbody>{vat.map((line, i) => (
              <tr key={i}><td>{line.vatKind}{line.vatCategory ? ` (${line.vatCategory})` : ''}</td><td className="num">{line.vatPercentage} %</td>
                <MoneyCell amount={line.taxableAmount} currency={b.currencyCode} /><MoneyCell amount={line.vatAmount} currency={b.currencyCode} /></tr>
            ))}</tbody>
          </table></div>
        ) : <Empty>No VAT lines yet.</Empty>}
      </Section>
      <Section title="Documents">
        {docs.length ? <ul className="documents">{docs.map((d) => <DocumentLink key={d.filename} boxId={b.databaseId} document={d} />)}</ul>
          : <Empty>No documents yet: an approved box gets a draft PDF; finalizing gives the final PDF and UBL.</Empty>}
      </Section>
      <Section title="Roll-ups and items">
        {b.rollups.length ? b.rollups.map((r) => <Rollup key={r.databaseId} rollup={r} currency={b.currencyCode} />) : <Empty>No items in this box yet.</Empty>}
      </Section>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={b.databaseId} /></Suspense>
    </>
  );
}
