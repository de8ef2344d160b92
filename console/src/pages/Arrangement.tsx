import { Suspense, useState } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import { AuditTrail } from '../components/AuditTrail.tsx';
import { useEntity } from '../components/EntityId.tsx';
import { Badge, DateTime, Empty } from '../components/format.tsx';
import { ActionButton, Facts, PAGE_SIZE, PageHeader, Section } from '../components/ui.tsx';
import { globalId } from '../relay/environment.ts';
import { Link, path } from '../router.tsx';
import { ReimbursementList } from './Areas.tsx';
import type { ArrangementPageQuery } from '../__generated__/ArrangementPageQuery.graphql.ts';
import type { ArrangementSwitchPlanMutation } from '../__generated__/ArrangementSwitchPlanMutation.graphql.ts';

/** A reimbursement arrangement (by its REST id): its plan, switching it, its session reimbursements. */
export function ArrangementPage({ id }: { id: string }) {
  const data = useLazyLoadQuery<ArrangementPageQuery>(graphql`
    query ArrangementPageQuery($id: ID!, $arrangementId: ID!, $count: Int!) {
      node(id: $id) {
        ... on ReimbursementArrangement {
          id databaseId adminId externalReference buyerReference validFrom validUntil defunct createdAt
          customer { databaseId name }
          plan { databaseId name mode }
        }
      }
      reimbursementPlans { databaseId name adminId }
      ...ReimbursementList_query @arguments(arrangementId: $arrangementId, count: $count)
    }
  `, { id: globalId('ReimbursementArrangement', id), arrangementId: id, count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  const a = data.node && 'adminId' in data.node ? data.node : null;
  const [planId, setPlanId] = useState('');
  useEntity(a?.databaseId ? { type: 'Reimbursement arrangement', restId: a.databaseId, restPath: `/cpo-reimbursement-arrangement/${a.databaseId}` } : null);
  if (!a || !a.databaseId) return <><PageHeader title="Arrangement not found" /><Empty>No reimbursement arrangement you may see has the id {id}.</Empty></>;
  const plans = data.reimbursementPlans.filter((p) => p.adminId === a.adminId && p.databaseId !== a.plan?.databaseId);
  const chosen = plans.find((p) => p.databaseId === planId);
  return (
    <>
      <p className="crumbs"><Link to="/reimbursement">Reimbursement</Link> › arrangement</p>
      <PageHeader title={<>Arrangement {a.externalReference ?? a.databaseId}</>} badges={<Badge state={a.defunct ? 'defunct' : 'active'} />} subtitle="press Shift+Y for its id" />
      <Section title="Details">
        <Facts items={[
          ['Customer', a.customer ? <Link to={path`/customers/${a.customer.databaseId}`}>{a.customer.name}</Link> : null],
          ['Plan', a.plan ? `${a.plan.name} (${a.plan.mode})` : 'none'], ['Administration', a.adminId], ['Buyer reference', a.buyerReference],
          ['Valid', <><DateTime value={a.validFrom} dateOnly /> – {a.validUntil ? <DateTime value={a.validUntil} dateOnly /> : 'open-ended'}</>],
        ]} />
        {!a.defunct ? (
          <div className="filters">
            <div className="field">
              <label htmlFor="switch-plan">Switch to plan</label>
              <select id="switch-plan" value={planId} onChange={(e) => setPlanId(e.target.value)}>
                <option value="">Choose a plan of {a.adminId}</option>
                {plans.map((p) => <option key={p.databaseId} value={p.databaseId}>{p.name}</option>)}
              </select>
            </div>
            {chosen ? (
              <ActionButton<ArrangementSwitchPlanMutation> label="Switch plan" explain={<p>Sessions of this arrangement are reimbursed by {chosen.name} from now on; earlier reimbursements stay.</p>}
                mutation={graphql`mutation ArrangementSwitchPlanMutation($arrangementId: ID!, $planId: ID!) { switchReimbursementPlan(arrangementId: $arrangementId, planId: $planId) { id plan { databaseId name mode } } }`}
                variables={{ arrangementId: a.databaseId, planId: chosen.databaseId }} onDone={() => setPlanId('')} />
            ) : null}
          </div>
        ) : null}
      </Section>
      <Section title="Session reimbursements"><ReimbursementList query={data} /></Section>
      <Suspense fallback={<p className="loading">Loading the audit trail…</p>}><AuditTrail resourceId={a.databaseId} /></Suspense>
    </>
  );
}
