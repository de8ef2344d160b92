import test from 'ava';
import { type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { startPricedApp, pricingResults, processed, sessionBody, submitSession } from '../helpers/session-factories.ts';
import { asGraphql, withoutNulls } from './rest-shape.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
let evcoId: string;
test.before(async () => {
  ({ app, adminId, evcoId } = await startPricedApp());
});
test.after.always(async () => { await app?.close(); });

const SUBTOTAL_FRAGMENT = `fragment SessionSubtotalFields on SessionSubtotal {
  kind component label volume billedVolume stepSize rate rateUnit amountExclVatUnrounded amountExclVat vatPercent vatKind vatCountry
  vatAmountUnrounded vatAmount amountInclVat rateLabel rateRepresentAsPercentage
}`;

const SESSION = `query ($id: ID!) { node(id: $id) { ... on ChargeSession { databaseId status totalEnergyKwh tokenEvcoId
  pricingResults { edges { node { version totalInclVat monetaryCreditUsed subtotals { ...SessionSubtotalFields } explanation ratePlanVersion { databaseId } } } } } } }
${SUBTOTAL_FRAGMENT}`;

test('sessions, their pricing results and repricing in GraphQL, as in REST', async (t) => {
  const stored = await submitSession(app, sessionBody(evcoId));
  await processed(app, stored.id);
  const list = await data(app, 'query { chargeSessions(status: PRICED, first: 50) { edges { node { id databaseId } } } }');
  const edge = list.chargeSessions.edges.find((e: any) => e.node.databaseId === stored.id);
  t.truthy(edge);
  const { node } = await data(app, SESSION, { id: edge.node.id });
  t.like(node, { databaseId: stored.id, status: 'PRICED', totalEnergyKwh: '10.00', tokenEvcoId: evcoId });
  const [rest] = await pricingResults(app, stored.id);
  t.like(node.pricingResults.edges[0].node, { version: 1, totalInclVat: rest.total_incl_vat, ratePlanVersion: { databaseId: rest.rate_plan_version_id } });
  t.deepEqual(withoutNulls(node.pricingResults.edges[0].node.subtotals), asGraphql(rest.subtotals, ['vatKind']));

  const repriced = await data(app, 'mutation ($id: ID!) { repriceChargeSession(id: $id) { status } }', { id: edge.node.id });
  t.is(repriced.repriceChargeSession.status, 'RECEIVED');
  await processed(app, stored.id);
  const again = await data(app, SESSION, { id: edge.node.id });
  t.deepEqual(again.node.pricingResults.edges.map((e: any) => e.node.version), [1, 2]);
});

test('drop-out cases and their reprocessing in GraphQL; another administration sees nothing', async (t) => {
  const stored = await submitSession(app, sessionBody(evcoId, { total_energy_kwh: '999', start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T10:30:00+01:00' }));
  const session = await processed(app, stored.id);
  t.is(session.dropout_reason, 'validity_plausible_energy');
  const cases = await data(app, 'query { dropoutCases(status: OPEN, first: 50) { edges { node { id databaseId reason sessionCount } } } }');
  const found = cases.dropoutCases.edges.find((e: any) => e.node.databaseId === session.dropout_case_id);
  t.like(found.node, { reason: 'validity_plausible_energy', sessionCount: 1 });
  const wrong = await graphql(app, 'mutation ($id: ID!) { reprocessDropoutCase(id: $id, instruction: BYPASS, bypassChecks: ["nope"]) { status } }', { id: found.node.id });
  t.truthy(wrong.body.errors);
  // Found by probing (2026-11-29): the list was unbounded (40,000 checks stored on every session); REST takes at most 4.
  const REPROCESS = 'mutation ($id: ID!, $b: [String!]) { reprocessDropoutCase(id: $id, instruction: BYPASS, bypassChecks: $b) { status } }';
  for (const b of [Array(5).fill('plausible_energy'), Array(40_000).fill('end_in_past')]) {
    const tooMany = await graphql(app, REPROCESS, { id: found.node.id, b });
    t.like(tooMany.body.errors?.[0]?.extensions, { code: 'validation_failed', param: '$.bypassChecks' });
  }
  t.like((await app.request('GET', `/main/v1/msp-dropout-case/${session.dropout_case_id}`)).body, { status: 'open', session_count: 1 });
  const done = await data(app, 'mutation ($id: ID!) { reprocessDropoutCase(id: $id, instruction: BYPASS, bypassChecks: ["plausible_energy"]) { status resolution } }', { id: found.node.id });
  t.deepEqual(done.reprocessDropoutCase, { status: 'RESOLVED', resolution: 'BYPASS' });
  t.is((await processed(app, stored.id)).status, 'priced');

  const outsider = await app.credential({ adminIds: [(await createAdministration(app)).id] });
  const hidden = await data(app, 'query { chargeSessions(first: 50) { edges { node { id } } } dropoutCases(first: 50) { edges { node { id } } } }', {}, outsider);
  t.deepEqual(hidden.chargeSessions.edges, []);
  t.deepEqual(hidden.dropoutCases.edges, []);
});
