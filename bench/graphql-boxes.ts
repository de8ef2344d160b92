// `npm run bench -- graphql-boxes`: the console's view of 50 billing boxes with their roll-ups
// and sessions by one GraphQL query (POST /graphql: the box page's selection, BillingBoxPageQuery
// with Rollup_rollup, over `billingBoxes(first: 50)`), against the same data by REST calls (GET
// /billing-box, whose boxes carry their roll-ups, then each box's GET
// /billing-box/{id}/msp-charge-session, 6 at a time as a browser would), measured in the same run
// from a client process of its own, in alternating rounds. The figure and the baseline are boxes
// (with their roll-ups and sessions) per second of the median round, so their ratio is REST time
// / GraphQL time: at least 0.5 means GraphQL takes at most twice as long as REST. Also prints the
// SQL statements of the GraphQL query, and of the same through a review-set (the billing page's
// way in), for 5 boxes and for 50 (target: the same count). The boxes: 55 customers' priced
// sessions (6 to 12 each, of 7 tokens; half the customers' roll-ups per token) billed by the
// billing core. The session's sender id (`sessionId`, which the console shows) comes with GraphQL
// only: REST's box session list has no such member, and a GET per session is left out.
import { runLoadClient } from './load-client.ts';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../rest/app.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { createSeries } from '../src/billing/billing-series.service.ts';
import { saveBillingSettings } from '../src/billing/billing-settings.service.ts';
import { billUnbilledSessions } from '../src/billing/sources/msp-session.source.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { createCustomer } from '../src/parties/save-customer.service.ts';
import { configureLog } from '../src/platform/log.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { pricedSessionsSql } from '../test/helpers/priced-sessions.ts';
import { countQueries } from '../test/helpers/sql-count.ts';
import type { BoxesJob, BoxesResult, Seen } from './graphql-boxes-client.ts';
import type { BenchmarkResult } from './run.ts';

const ADMIN = 'bench-boxes';
const SERIES = 'bench-boxes';
const CUSTOMERS = 55;
const BOXES = 50;
const ROUNDS = Number(process.env.BENCH_BOXES_ROUNDS ?? 20);
const CONCURRENCY = 6;
const AUTHORIZATION = `Basic ${Buffer.from('bench-boxes:bench-secret-1234').toString('base64')}`;

/** The box page's box fields (console/src/pages/BillingBox.tsx: BillingBoxPageQuery and Rollup_rollup, which BoxRow_box's are among). */
const BOX_FIELDS = `id databaseId adminId partyId partyName partyExternalReference state deferred transferred invoiceCode invoiceDate documentKind
  currencyCode totalAmountExclVat totalVatAmount totalAmountInclVat
  vatBreakdown { vatKind vatCategory vatPercentage taxableAmount vatAmount }
  documents { filename contentType size primary draft }
  periodFrom periodUntil reviewSetId
  seriesCode paymentMethod paymentPeriod billingReference rollupGroupBy vatCountry
  rollups {
    databaseId productCategory groupValue context itemCount vatKind vatPercentage subtotalExclVat vatAmount subtotalInclVat volume { unit volume } averageAmountPerKwhExclTax
    items(first: 20) { databaseId description occurredAt quantity unit amountExclVat vatPercentage sourceKind subItems { kind label volume unit amountExclVat } chargeSession { databaseId sessionId } }
  }`;

/**
 * A page of boxes with the box page's selection; a roll-up's first 20 items (all of them here) rather than the page's 50, which
 * the cost limit refuses over 50 boxes.
 */
const QUERY = `query BenchBoxes($adminId: ID!, $count: Int!) {
  billingBoxes(adminId: $adminId, first: $count) { edges { node { ${BOX_FIELDS} } } }
}`;

/** The same through the billing page's way in (console/src/pages/Billing.tsx: ReviewSetPageQuery, a review-set's boxes). */
const REVIEW_SET_QUERY = `query BenchReviewSetBoxes($id: ID!, $count: Int!) {
  node(id: $id) { ... on BillingReviewSet { id code boxes(first: $count) { edges { node { ${BOX_FIELDS} } } } } }
}`;

const measure = (job: BoxesJob) => runLoadClient<BoxesResult>('graphql-boxes-client.ts', job);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

function compare(graphql: Seen, rest: Seen): string {
  const differs = (['boxes', 'rollups', 'items'] as const).filter((key) => !sameSet(graphql[key], rest[key]));
  return differs.length ? `DIFFERENT ${differs.join(', ')}` : 'the same boxes, roll-ups and session items';
}

export async function graphqlBoxesBenchmark(url: string): Promise<BenchmarkResult> {
  // Request log lines are written as in the service, to /dev/null rather than through this report.
  configureLog({ destination: pino.destination({ dest: '/dev/null', sync: false }) });
  const orm = await openOrm(ormConfig(url, { poolMax: 8 }));
  const app = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

  const em = scopedEm(orm);
  await createAdministration(em, { id: ADMIN, name: 'Bench boxes', currency: 'EUR', country: 'NL' });
  await saveBillingSettings(em, ADMIN, { timeZone: 'Europe/Amsterdam' });
  await createSeries(em, { adminId: ADMIN, code: 'BOX', externalReference: SERIES });
  await saveCredential(scopedEm(orm), { publicId: 'bench-boxes', secret: 'bench-secret-1234' });
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = await em.transactional((tx) => createCustomer(tx, {
      adminId: ADMIN, name: `Fleet ${i}`, country: 'NL', entityType: 'organisation', externalReference: `bench-boxes-${i}`,
      billingRollupGroupBy: i % 2 ? 'token' : 'product',
    }));
    await em.getConnection().execute(pricedSessionsSql({ adminId: ADMIN, customerId: customer.id, count: 6 + (i % 7), tag: `bench-boxes-${i}` }));
  }
  // Each session priced for its own token (of 7), so that a box grouped per token has a roll-up per token.
  await em.getConnection().execute(`update msp_pricing_result r set token_evco_id = s.evco_id from msp_charge_session s
    where s.id = r.session_id and r.admin_id = '${ADMIN}'`);
  await billUnbilledSessions(scopedEm(orm), ADMIN);

  // SQL statements of the GraphQL queries for 5 and for 50 boxes (authenticated once before: the secret is then remembered).
  const graphql = (query: string, variables: Record<string, unknown>) => fetch(`${appUrl}/graphql`, {
    method: 'POST', headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }),
  }).then(async (r) => {
    const body = await r.json() as { data?: any; errors?: unknown };
    if (r.status !== 200 || body.errors) throw new Error(`GraphQL ${r.status}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
    return body.data;
  });
  const reviewSet = (await graphql('query($adminId: ID!) { billingBoxes(adminId: $adminId, first: 1) { edges { node { reviewSetId } } } }', { adminId: ADMIN }))
    .billingBoxes.edges[0].node.reviewSetId as string;
  const reviewSetId = Buffer.from(`BillingReviewSet:${reviewSet}`).toString('base64');
  let sql = '';
  for (const [label, query, variables] of [
    ['billingBoxes', QUERY, { adminId: ADMIN }], ["a review-set's boxes", REVIEW_SET_QUERY, { id: reviewSetId }],
  ] as const) {
    const statements: Record<number, string[]> = {};
    for (const count of [5, BOXES]) {
      statements[count] = await countQueries(orm, async () => {
        const data = await graphql(query, { ...variables, count });
        const shown = (data.billingBoxes ?? data.node.boxes).edges.length;
        if (shown !== count) throw new Error(`${label}: ${shown} boxes, not ${count}`);
      });
    }
    const [few, many] = [statements[5].length, statements[BOXES].length];
    sql += `${sql ? '; ' : ''}${label}: ${few} for 5 boxes, ${many} for ${BOXES}${few === many ? '' : ' (DIFFERENT)'}`;
    if (process.env.BENCH_BOXES_SQL) console.log(statements[BOXES].join('\n'));
  }
  console.log(`  SQL statements of the GraphQL queries (target: the same for 5 and ${BOXES} boxes): ${sql}`);

  const result = await measure({
    url: appUrl, authorization: AUTHORIZATION, graphql: { query: QUERY, variables: { adminId: ADMIN, count: BOXES } },
    restList: `/main/v1/billing-box?series_external_reference=${SERIES}&page_size=${BOXES}`,
    restSessions: '/main/v1/billing-box/{id}/msp-charge-session', concurrency: CONCURRENCY, warmupRounds: 3, rounds: ROUNDS,
  });
  const { graphql: g, rest: r } = result;
  console.log(`  ${g.boxes.length} boxes, ${g.rollups.length} roll-ups, ${g.items.length} sessions: ${compare(g, r)};`
    + ` GraphQL 1 request of ${(g.bytes / 1024).toFixed(0)} KB, REST ${r.requests} requests of ${(r.bytes / 1024).toFixed(0)} KB`);
  const [graphqlMs, restMs] = [median(result.graphqlMs), median(result.restMs)];
  console.log(`  median of ${ROUNDS} rounds: GraphQL ${graphqlMs.toFixed(1)} ms, REST ${restMs.toFixed(1)} ms (target: GraphQL at most 2 × REST,`
    + ` ratio ≥ 0.5)`);
  app.closeAllConnections();
  await new Promise((resolve) => app.close(resolve));
  await orm.close();
  configureLog();
  return {
    name: `${BOXES} billing boxes with roll-ups and sessions by one GraphQL query`, unit: 'boxes/s',
    figure: (BOXES * 1000) / graphqlMs, baseline: (BOXES * 1000) / restMs,
    baselineLabel: `the same data by REST: the box list and ${BOXES} box session lists, ${CONCURRENCY} at a time`,
  };
}
