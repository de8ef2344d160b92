import { Suspense, useEffect, useState } from 'react';
import { graphql, useFragment, useLazyLoadQuery } from 'react-relay';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { useEntity } from '../components/EntityId.tsx';
import { Badge, DateTime, Empty, groupDigits, MoneyCell } from '../components/format.tsx';
import { ActionButton, Facts, PageHeader, Section } from '../components/ui.tsx';
import { globalId } from '../relay/environment.ts';
import { Link, path } from '../router.tsx';
import type { SessionPageQuery } from '../__generated__/SessionPageQuery.graphql.ts';
import type { PricingResultView_result$key } from '../__generated__/PricingResultView_result.graphql.ts';
import type { SessionRepriceMutation } from '../__generated__/SessionRepriceMutation.graphql.ts';

function PricingResultView({ result, timeZone }: { result: PricingResultView_result$key; timeZone?: string | null }) {
  const r = useFragment(graphql`
    fragment PricingResultView_result on PricingResult {
      version createdAt currency totalExclVat totalVat totalInclVat monetaryCreditUsed explanation
      rule { name index }
      subtotals { kind label rateLabel volume billedVolume rateUnit rate stepSize amountExclVat vatPercent vatAmount amountInclVat }
      annotations { name value }
      ratePlanVersion { databaseId validFrom ratePlan { name databaseId } }
    }
  `, result);
  const rule = r.rule;
  const lines = r.subtotals;
  return (
    <div>
      <Facts items={[
        ['Rate plan', r.ratePlanVersion ? <>{r.ratePlanVersion.ratePlan.name}, version from <DateTime value={r.ratePlanVersion.validFrom} dateOnly /></> : 'none'],
        ['Rule', rule?.name ? `#${rule.index} “${rule.name}” matched first` : 'no rule matched: the base rates apply'],
        ['Monetary credit used', <>{r.monetaryCreditUsed} {r.currency}</>],
        ['Priced', <DateTime value={r.createdAt} timeZone={timeZone} />],
      ]} />
      <h3>Lines</h3>
      <div className="table-wrap">
        <table className="pricing-lines">
          <thead><tr>
            <th scope="col">Line</th><th scope="col" className="num">Quantity</th><th scope="col" className="num">Rate</th><th scope="col" className="num">Excl. VAT</th>
            <th scope="col" className="num">VAT %</th><th scope="col" className="num">VAT</th><th scope="col" className="num">Incl. VAT</th>
          </tr></thead>
          <tbody>{lines.map((line, i) => (
            <tr key={i}>
              <td>{line.rateLabel || line.label || line.kind} <span className="muted">({line.kind}{line.stepSize ? `, steps of ${line.stepSize}` : ''})</span></td>
              <td className="num">{line.billedVolume} {line.rateUnit}</td>
              <td className="num">{groupDigits(line.rate)} / {line.rateUnit}</td>
              <MoneyCell amount={line.amountExclVat} />
              <td className="num">{line.vatPercent}</td>
              <MoneyCell amount={line.vatAmount} />
              <MoneyCell amount={line.amountInclVat} />
            </tr>
          ))}</tbody>
          <tfoot><tr>
            <th scope="row">Total</th><td /><td />
            <MoneyCell amount={r.totalExclVat} currency={r.currency} /><td />
            <MoneyCell amount={r.totalVat} currency={r.currency} />
            <MoneyCell amount={r.totalInclVat} currency={r.currency} />
          </tr></tfoot>
        </table>
      </div>
      <h3>How this price came about</h3>
      <ol className="explanation" aria-label="Price explanation">
        {r.explanation.map((line, i) => <li key={i}>{line}</li>)}
      </ol>
      {r.annotations.length ? <><h3>Annotations</h3><dl className="facts">{r.annotations.map((a) => <div key={a.name}><dt>{a.name}</dt><dd>{a.value}</dd></div>)}</dl></> : null}
    </div>
  );
}

export function SessionPage({ id }: { id: string }) {
  const [fetchKey, setFetchKey] = useState(0);
  const [polls, setPolls] = useState(0);
  const data = useLazyLoadQuery<SessionPageQuery>(graphql`
    query SessionPageQuery($id: ID!) {
      node(id: $id) {
        ... on ChargeSession {
          id databaseId sessionId status source tokenEvcoId startDateTime endDateTime timeZone totalEnergyKwh country
          evseId evseUid connectorId locationId cpoId receivedAt dropoutReason totalReimbursementAmountExclVat
          calculatedRoamingAmountExclVat calculatedRoamingAmountInclVat roamingPartnerId roamingAgreementId
          dropoutCase { databaseId reason status message }
          pricingResults(last: 20) { edges { node { id version ...PricingResultView_result } } }
        }
      }
    }
  `, { id: globalId('ChargeSession', id) }, { fetchPolicy: fetchKey ? 'network-only' : 'store-and-network', fetchKey });
  const s = data.node && 'sessionId' in data.node ? data.node : null;
  const versions = s?.pricingResults?.edges.map((e) => e.node) ?? [];
  const [tab, setTab] = useState<number | null>(null);
  const shown = versions.find((v) => v.version === tab) ?? versions[versions.length - 1];
  useEntity(s?.databaseId ? { type: 'Charge session', restId: s.databaseId, restPath: `/msp-charge-session/${s.databaseId}` } : null);
  // After a reprice the session is received again until the pipeline has priced it: look again for a while.
  const waiting = s?.status === 'RECEIVED' && polls > 0 && polls < 20;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => { setPolls((n) => n + 1); setFetchKey((k) => k + 1); }, 1000);
    return () => clearTimeout(timer);
  }, [waiting, polls]);
  if (!s || !s.databaseId) return <><PageHeader title="Charge session not found" /><Empty>No charge session you may see has the id {id}.</Empty></>;
  const minutes = Math.round((Date.parse(s.endDateTime!) - Date.parse(s.startDateTime!)) / 60000);
  return (
    <>
      <PageHeader
        title={<>Session {s.sessionId}</>}
        badges={<Badge state={s.status!} />}
        subtitle={<>{s.source === 'cpo_charge_session' ? 'CPO session' : 'MSP session'} · press Shift+Y for its id</>}
        actions={s.source !== 'cpo_charge_session' ? (
          <ActionButton<SessionRepriceMutation> label="Reprice" title="Reprice this session?"
            explain={<p>The session goes through the pipeline again and gets a new pricing result (version {versions.length + 1}); its billing item follows the new price.</p>}
            mutation={graphql`mutation SessionRepriceMutation($id: ID!) { repriceChargeSession(id: $id) { id status } }`}
            variables={{ id: s.databaseId }} done="Sent for repricing"
            onDone={() => { setPolls(1); setFetchKey((k) => k + 1); }} />
        ) : null}
      />
      {waiting ? <p role="status" className="notice">Waiting for the pipeline to price the session…</p> : null}
      <Section title="Facts">
        <Facts items={[
          ['Token', <Link to={path`/tokens/${s.tokenEvcoId!}`}>{s.tokenEvcoId}</Link>],
          ['EVSE', s.evseId ?? s.evseUid],
          ['Connector', s.connectorId], ['Location', s.locationId], ['CPO', s.cpoId], ['Country', s.country],
          ['Start', <DateTime value={s.startDateTime} timeZone={s.timeZone} />],
          ['End', <DateTime value={s.endDateTime} timeZone={s.timeZone} />],
          ['Duration', `${minutes} min`],
          ['Energy', `${s.totalEnergyKwh} kWh`],
          ['Received', <DateTime value={s.receivedAt} timeZone={s.timeZone} />],
          ['Reimbursement excl. VAT', s.totalReimbursementAmountExclVat],
          ['Roaming amount excl. VAT', s.calculatedRoamingAmountExclVat],
        ]} />
        {s.dropoutCase ? (
          <p className="notice">Drop-out: {s.dropoutCase.reason} — {s.dropoutCase.message} (<Link to={`/dropouts?status=${s.dropoutCase.status}`}>{s.dropoutCase.status.toLowerCase()} case</Link>)</p>
        ) : null}
      </Section>
      <Section title="Pricing result">
        {versions.length ? (
          <>
            <div role="tablist" aria-label="Pricing result versions" className="tabs">
              {versions.map((v) => (
                <button key={v.id} type="button" role="tab" aria-selected={v === shown} onClick={() => setTab(v.version)}>Version {v.version}</button>
              ))}
            </div>
            {shown ? <div role="tabpanel" aria-label={`Version ${shown.version}`}><PricingResultView result={shown} timeZone={s.timeZone} /></div> : null}
          </>
        ) : <Empty>Not priced{s.dropoutReason ? `: drop-out ${s.dropoutReason}` : ' yet'}.</Empty>}
      </Section>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={s.databaseId} /></Suspense>
    </>
  );
}
