import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const CREATE = 'mutation ($input: CustomerInput!) { createCustomer(input: $input) { id name } }';
const customerCount = async () => Number((await app.orm.em.fork().getConnection().execute('select count(*) as n from customer'))[0].n);

// Serial: both tests count the customers of the instance, and the first one creates one.
test.serial('a variable over 10,000 characters or with control characters is 400 validation_failed at its place, and creates nothing', async (t) => {
  const before = await customerCount();
  const nul = await graphql(app, CREATE, { input: { adminId, name: 'a\u0000b', country: 'NL' } });
  t.is(nul.status, 400); // the JSON body itself is refused (invalid_json)
  for (const name of ['x'.repeat(10_001), 'bell\u0007']) {
    const response = await graphql(app, CREATE, { input: { adminId, name, country: 'NL' } });
    t.is(response.status, 400, JSON.stringify(name.slice(0, 10)));
    t.is(response.body.errors?.[0].extensions?.code, 'validation_failed');
    t.is(response.body.errors?.[0].extensions?.param, '$.input.name');
  }
  t.is(await customerCount(), before);
  const fine = await graphql(app, CREATE, { input: { adminId, name: 'Line\tone\nand two', country: 'NL' } });
  t.falsy(fine.body.errors, JSON.stringify(fine.body));
});

test.serial('a string literal in the query text is held to the same rules', async (t) => {
  const before = await customerCount();
  const nul = await graphql(app, `mutation { createCustomer(input: { adminId: "${adminId}", name: "a\\u0000b", country: "NL" }) { id } }`);
  t.is(nul.status, 400);
  t.is(nul.body.errors?.[0].extensions?.code, 'validation_failed');
  const long = await graphql(app, `mutation { createCustomer(input: { adminId: "${adminId}", name: "${'x'.repeat(10_001)}", country: "NL" }) { id } }`);
  t.is(long.status, 400);
  t.is(await customerCount(), before);
});

// Found by probing (2026-11-29): GraphQL let tab, LF and CR through in identifiers REST refuses
// (rest/rails/input-guards.ts); the same rule by member name (src/platform/identifier-members.ts).
test.serial('identifier members (ids, references, codes, usernames) refuse tab and line breaks as REST does, at the member, and store nothing', async (t) => {
  const rows = async () => Number((await app.orm.em.fork().getConnection().execute(`select (select count(*) from customer) + (select count(*) from end_user)
    + (select count(*) from cpo_evse_location) + (select count(*) from billing_series) + (select count(*) from webhook_subscription) as n`))[0].n);
  const before = await rows();
  const refusals: [string, Record<string, unknown>, string][] = [
    ['mutation ($i: CustomerInput!) { createCustomer(input: $i) { id } }', { i: { adminId, name: 'X', country: 'NL', externalReference: 'ref\nA' } }, '$.input.externalReference'],
    ['mutation ($id: ID!, $i: CustomerInput!) { updateCustomer(id: $id, input: $i) { id } }', { id: 'ext_ref.a\tb', i: { adminId, name: 'X', country: 'NL' } }, '$.id'],
    ['mutation ($l: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $l, input: $i) { locationId } }',
      { l: 'LOC\tA', i: { adminId, name: 'Station', timeZone: 'Europe/Amsterdam', country: 'NL', city: 'Utrecht', street: 'S 1', postalCode: '1234 AB' } }, '$.locationId'],
    ['mutation ($i: EndUserInput!) { createEndUser(input: $i) { databaseId } }', { i: { adminId, username: 'bob\nA' } }, '$.input.username'],
    ['mutation ($i: BillingSeriesInput!) { createBillingSeries(input: $i) { databaseId } }', { i: { adminId, code: 'SA', externalReference: 'ser\rA' } }, '$.input.externalReference'],
    ['mutation ($i: [String!]) { createWebhookSubscription(url: "https://hooks.example.com/a", kinds: ["customer"], secret: "whsec-0123456789abcdef", adminIds: $i) { databaseId } }',
      { i: [adminId, `${adminId}\t`] }, '$.adminIds[1]'],
    // written into the query text, and as a variable's default
    [`mutation { createCustomer(input: { adminId: "${adminId}", name: "X", country: "NL", externalReference: "ref\\tB" }) { id } }`, {}, '$.input.externalReference'],
    [`mutation ($r: String = "ref\\nC") { createCustomer(input: { adminId: "${adminId}", name: "X", country: "NL", externalReference: $r }) { id } }`, {}, '$.input.externalReference'],
  ];
  for (const [query, variables, param] of refusals) {
    const r = await graphql(app, query, variables);
    t.is(r.status, 400, query);
    t.like(r.body.errors?.[0]?.extensions, { code: 'validation_failed', param }, query);
    t.is(r.body.data, undefined, query);
  }
  t.is(await rows(), before, 'nothing stored');
  // Free text keeps its tab and line breaks; an identifier without control characters is taken.
  const fine = await graphql(app, CREATE, { input: { adminId, name: 'Line\tone\nand two', country: 'NL', externalReference: `ref-${process.pid}` } });
  t.falsy(fine.body.errors, JSON.stringify(fine.body));
});
