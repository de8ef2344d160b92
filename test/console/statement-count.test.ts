// The console's own page queries (the operation texts relay-compiler generated) cost the same
// number of SQL statements whatever the number of rows they show: the customer page (addresses,
// mandates, subscriptions with their token links, boxes, audit trail) and the billing review
// (a review-set's boxes; a box's roll-ups with their items).
import { readFileSync } from 'node:fs';
import test from 'ava';
import { ensureConsoleBuilt } from '../../scripts/console-build.ts';
import { ensureDemoInstance } from '../../src/demo/demo-instance.ts';
import { processSessionBatch } from '../../src/session-processing/process-sessions.service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data } from '../schema/graphql.ts';
import { seedCustomers } from '../schema/parties.ts';
import { seedSubscriptions } from '../schema/msp.ts';

/** The text of a console operation, as the console sends it. */
function operation(name: string): string {
  const artifact = readFileSync(new URL(`../../console/src/__generated__/${name}.graphql.ts`, import.meta.url), 'utf8');
  const text = /"text": ("(?:[^"\\]|\\.)*")/.exec(artifact);
  if (!text) throw new Error(`no operation text in ${name}`);
  return JSON.parse(text[1]!);
}

let app: TestApp;
test.before(async (t) => {
  t.timeout(180_000, 'build the console when stale (its operations), start the app, seed');
  ensureConsoleBuilt(() => {});
  app = await startTestApp();
  // On an empty database only: before the customer test's own administration.
  await ensureDemoInstance(app.orm, () => {});
  await processSessionBatch(app.orm, 100);
});
test.after.always(async () => { await app?.close(); });

async function statements(run: () => Promise<unknown>): Promise<string[]> {
  return countQueries(app.orm, run);
}

test.serial('the customer page: as many statements for one of each as for many', async (t) => {
  const admin = (await createAdministration(app)).id;
  const [few] = await seedCustomers(app, admin, 1, { addresses: 1, mandates: 1 });
  const [many] = await seedCustomers(app, admin, 1, { addresses: 5, mandates: 4 });
  await seedSubscriptions(app, admin, [few!], { subscriptions: 1, links: 1 });
  await seedSubscriptions(app, admin, [many!], { subscriptions: 4, links: 3 });
  const page = operation('CustomerPageQuery');
  const boxes = operation('CustomerBoxesQuery');
  const audit = operation('AuditTrailQuery');
  const open = async (id: string) => {
    const shown = await data(app, page, { id });
    await data(app, boxes, { partyId: id });
    await data(app, audit, { resourceId: id });
    return shown;
  };
  await open(few!); // authenticates (the credential is then cached)
  const forFew = await statements(() => open(few!));
  let shown: Record<string, any> = {};
  const forMany = await statements(async () => { shown = await open(many!); });
  const customer = shown.customer;
  t.is(customer.billingAddresses.edges.length, 5);
  t.is(customer.directDebitMandates.edges.length, 4);
  t.is(customer.subscriptions.edges.length, 4);
  t.true(customer.subscriptions.edges.every((e: any) => e.node.tokenLinks.edges.length === 3 && e.node.tokenLinks.edges.every((l: any) => l.node.token.evcoIdFormatted)));
  t.is(forMany.length, forFew.length, forMany.join('\n'));
});

test.serial('the billing review: a review-set with its boxes, a box with its roll-ups and items', async (t) => {
  const { billingReviewSets } = await data(app, '{ billingReviewSets(first: 10) { edges { node { id boxCounts { open } } } } }');
  const current = billingReviewSets.edges.map((e: any) => e.node).find((s: any) => s.boxCounts.open >= 3);
  t.truthy(current, JSON.stringify(billingReviewSets));
  const setPage = operation('ReviewSetPageQuery');
  const one = await statements(() => data(app, setPage, { id: current.id, state: null, count: 1 }));
  let set: Record<string, any> = {};
  const all = await statements(async () => { set = await data(app, setPage, { id: current.id, state: null, count: 25 }); });
  t.is(set.node.boxes.edges.length, 3);
  t.is(all.length, one.length, all.join('\n'));

  // Jan de Vries's boxes: this month's (a few sessions) and last month's (sessions, a fee, a custom item).
  const { billingBoxes } = await data(app, '{ billingBoxes(first: 20) { edges { node { databaseId state partyExternalReference rollups { itemCount } } } } }');
  const jans = billingBoxes.edges.map((e: any) => e.node).filter((b: any) => b.partyExternalReference === 'CUST-1001');
  const small = jans.find((b: any) => b.state === 'OPEN');
  const large = jans.find((b: any) => b.state === 'FINALIZED');
  const itemsOf = (b: any) => b.rollups.reduce((n: number, r: any) => n + r.itemCount, 0);
  t.true(large.rollups.length > small.rollups.length && itemsOf(large) > itemsOf(small) + 5, 'the boxes differ in roll-ups and items');
  const boxPage = operation('BillingBoxPageQuery');
  const forSmall = await statements(() => data(app, boxPage, { id: small.databaseId }));
  const forLarge = await statements(() => data(app, boxPage, { id: large.databaseId }));
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));
});
