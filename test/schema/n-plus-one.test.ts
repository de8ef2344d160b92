import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data } from './graphql.ts';
import { seedCustomers } from './parties.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });


const LIST = `query ($admin: ID!) { customers(adminId: $admin, first: 50) { edges { node {
  name
  administration { name sellerName }
  billingAddresses(first: 2) { edges { node { city customer { name } administration { databaseId } } } }
  directDebitMandates(first: 1) { edges { node { iban } } }
} } } }`;

test.serial('listing customers with their relations costs the same few queries for 2 or 50 customers', async (t) => {
  const small = (await createAdministration(app)).id;
  const large = (await createAdministration(app)).id;
  await seedCustomers(app, small, 2, { addresses: 2, mandates: 1 });
  await seedCustomers(app, large, 50, { addresses: 2, mandates: 1 });
  await data(app, '{ administrations { id } }'); // authenticates (the credential is then cached)

  let result: Record<string, any> = {};
  const forSmall = await countQueries(app.orm, () => data(app, LIST, { admin: small }));
  const forLarge = await countQueries(app.orm, async () => { result = await data(app, LIST, { admin: large }); });

  const edges = result.customers.edges;
  t.is(edges.length, 50);
  t.true(edges.every((e: any) => e.node.administration.sellerName && e.node.billingAddresses.edges.length === 2
    && e.node.directDebitMandates.edges.length === 1 && e.node.billingAddresses.edges[0].node.customer.name === e.node.name));
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));
  // customers, administrations (with sellers), billing addresses, mandates; the customers of the addresses are cached
  t.true(forLarge.length <= 4, forLarge.join('\n'));
});
