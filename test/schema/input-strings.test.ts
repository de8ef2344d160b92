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
