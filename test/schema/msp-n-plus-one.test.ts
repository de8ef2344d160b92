import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data } from './graphql.ts';
import { seedSubscriptions } from './msp.ts';
import { seedCustomers } from './parties.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });


const LIST = `query ($admin: ID!) { customers(adminId: $admin, first: 50) { edges { node {
  name
  subscriptions(first: 3) { edges { node {
    isValid monetaryCreditBalance customer { name } plan { name } administration { name }
    tokenLinks(first: 3) { edges { node {
      evcoId effectiveValidFrom isCurrentlyValid subscription { databaseId }
      token { evcoIdFormatted isCurrentlyValid currentAdministration { databaseId } links { edges { node { databaseId } } } }
    } } }
  } } }
} } } }`;

async function seed(count: number, per: { subscriptions: number; links: number }): Promise<string> {
  const admin = (await createAdministration(app)).id;
  await seedSubscriptions(app, admin, await seedCustomers(app, admin, count), per);
  return admin;
}

test.serial('customers → subscriptions → token links → tokens costs the same few queries for 2 or 50 customers', async (t) => {
  const small = await seed(2, { subscriptions: 1, links: 1 });
  const large = await seed(50, { subscriptions: 3, links: 3 });
  await data(app, '{ administrations { id } }'); // authenticates (the credential is then cached)

  let result: Record<string, any> = {};
  const forSmall = await countQueries(app.orm, () => data(app, LIST, { admin: small }));
  const forLarge = await countQueries(app.orm, async () => { result = await data(app, LIST, { admin: large }); });

  const customers = result.customers.edges;
  t.is(customers.length, 50);
  const links = customers.flatMap((c: any) => c.node.subscriptions.edges.flatMap((s: any) => s.node.tokenLinks.edges));
  t.is(links.length, 450);
  t.true(links.every((l: any) => l.node.isCurrentlyValid && l.node.token.isCurrentlyValid && l.node.token.links.edges.length === 1));
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));
  // customers, subscriptions, token links, administrations, plans, tokens, the tokens' validity (their links with
  // subscriptions and customers), the tokens' links; subscriptions and customers met again come from the loaders' caches
  t.true(forLarge.length <= 8, forLarge.join('\n'));
});
