// A credential limited to administration B that names a record of administration A in a body
// gets 400 not_found at that member, as for any record it cannot see, also where the member is
// immutable and would be ignored; the request changes nothing. Serial: the tests share B's records.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, createEndUser, insertSubscriptionPlan, insertTokenSubscription } from '../../helpers/factories.ts';
import { graphql } from '../../schema/graphql.ts';

const MISSING_ID = '0190f5d2-0000-7000-8000-000000000000';

let app: TestApp;
let scoped: Auth;
let a: { adminId: string; customer: Record<string, any>; planId: string; planRef: string };
let b: {
  adminId: string; customer: Record<string, any>; address: Record<string, any>; mandate: Record<string, any>;
  endUserId: string; planId: string; subscriptionId: string;
};

async function ok(method: string, path: string, body: unknown) {
  const response = await app.request(method, path, { body });
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

test.before(async () => {
  app = await startTestApp();
  const adminA = (await createAdministration(app)).id;
  const adminB = (await createAdministration(app)).id;
  const planRef = `plan-a-${process.pid}`;
  a = {
    adminId: adminA,
    customer: await createCustomer(app, adminA),
    planId: (await insertSubscriptionPlan(app, adminA, { externalReference: planRef })).id,
    planRef,
  };
  const customerB = await createCustomer(app, adminB);
  const subscription = await insertTokenSubscription(app, adminB, { customer: customerB.id });
  b = {
    adminId: adminB,
    customer: customerB,
    address: await ok('POST', '/main/v1/billing-address/ext_ref.addr-b', { party_id: customerB.id, city: 'Breda' }),
    mandate: await ok('POST', '/main/v1/billing-direct-debit-mandate/ext_ref.mandate-b', {
      customer_id: customerB.id, bank_account_name: 'B', iban: 'NL91ABNA0417164300',
    }),
    endUserId: (await createEndUser(app, adminB)).id,
    planId: subscription.planId,
    subscriptionId: subscription.id,
  };
  scoped = await app.credential({ adminIds: [adminB] });
});
test.after.always(async () => { await app?.close(); });

/** Sends the request with the credential of B, expects 400 not_found at `param`, and that GET `readPath` is unchanged. */
async function refused(t: any, method: string, path: string, body: Record<string, unknown>, param: string, readPath: string) {
  const before = (await app.request('GET', readPath)).body;
  const response = await app.request(method, path, { body, auth: scoped });
  t.is(response.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`);
  t.is(response.body.code, 'not_found', `${method} ${path} ${JSON.stringify(body)}`);
  t.is(response.body.param, param, `${method} ${path} ${JSON.stringify(body)}`);
  t.deepEqual((await app.request('GET', readPath)).body, before, `${method} ${path} changed nothing`);
}

test.serial('customer: admin_id naming an administration the credential cannot see', async (t) => {
  const path = `/main/v1/customer/${b.customer.id}`;
  for (const adminId of [a.adminId, 'no-such-administration']) {
    await refused(t, 'POST', path, { admin_id: adminId, name: 'Moved' }, '$.admin_id', path);
    await refused(t, 'PUT', path, { admin_id: adminId, name: 'Moved', country: 'NL' }, '$.admin_id', path);
    await refused(t, 'POST', `/main/v1/customer/ext_ref.${b.customer.external_reference}`, { admin_id: adminId, name: 'Moved' }, '$.admin_id', path);
  }
});

test.serial('billing address: party and customer members naming a customer the credential cannot see', async (t) => {
  const path = `/main/v1/billing-address/${b.address.id}`;
  const members: [string, string][] = [
    ['party_id', a.customer.id], ['party_external_reference', a.customer.external_reference],
    ['customer_id', a.customer.id], ['customer_external_reference', a.customer.external_reference],
    ['party_id', MISSING_ID], ['customer_id', 'not-an-id'],
  ];
  for (const [member, value] of members) {
    await refused(t, 'POST', path, { [member]: value, city: 'Hijack' }, `$.${member}`, path);
    await refused(t, 'PUT', path, { [member]: value, city: 'Hijack' }, `$.${member}`, path);
    await refused(t, 'POST', '/main/v1/billing-address/ext_ref.addr-b', { [member]: value, city: 'Hijack' }, `$.${member}`, path);
  }
});

test.serial('direct debit mandate: customer members naming a customer the credential cannot see', async (t) => {
  const path = `/main/v1/billing-direct-debit-mandate/${b.mandate.id}`;
  const read = `/main/v1/direct-debit-mandate/${b.mandate.id}`;
  await refused(t, 'POST', path, { customer_id: a.customer.id, bank_account_name: 'Hijack' }, '$.customer_id', read);
  await refused(t, 'POST', path, { customer_external_reference: a.customer.external_reference, bank_account_name: 'Hijack' },
    '$.customer_external_reference', read);
});

test.serial('end user: admin_id naming an administration the credential cannot see', async (t) => {
  const path = `/main/v1/end-user/${b.endUserId}`;
  await refused(t, 'POST', path, { admin_id: a.adminId, email: 'hijack@example.com' }, '$.admin_id', path);
});

test.serial('subscription plan: admin_id naming an administration the credential cannot see', async (t) => {
  const path = `/main/v1/msp-token-subscription-plan/${b.planId}`;
  await refused(t, 'POST', path, { admin_id: a.adminId, name: 'Hijack' }, '$.admin_id', path);
});

test.serial('token subscription: administration, customer and plan members the credential cannot see', async (t) => {
  const path = `/main/v1/msp-token-subscription/${b.subscriptionId}`;
  const cases: [Record<string, unknown>, string][] = [
    [{ admin_id: a.adminId }, '$.admin_id'],
    [{ customer_id: a.customer.id }, '$.customer_id'],
    [{ customer_external_reference: a.customer.external_reference }, '$.customer_external_reference'],
    [{ plan_id: a.planId }, '$.plan_id'],
    [{ plan_external_reference: a.planRef }, '$.plan_external_reference'],
  ];
  for (const [members, param] of cases) {
    await refused(t, 'POST', path, { ...members, buyer_reference: 'hijack' }, param, path);
    await refused(t, 'PUT', path, { ...members, buyer_reference: 'hijack', valid_from: '2026-01-01T00:00:00Z' }, param, path);
  }
});

test.serial('immutable members naming a visible record are still ignored', async (t) => {
  const customer = await app.request('POST', `/main/v1/customer/${b.customer.id}`, { body: { admin_id: b.adminId, locale_id: 'nl-NL' }, auth: scoped });
  t.is(customer.status, 200, JSON.stringify(customer.body));
  t.is(customer.body.admin_id, b.adminId);
  const other = await createCustomer(app, b.adminId);
  const address = await app.request('POST', `/main/v1/billing-address/${b.address.id}`, { body: { party_id: other.id, region: 'NB' }, auth: scoped });
  t.is(address.status, 200, JSON.stringify(address.body));
  t.is(address.body.party_id, b.customer.id);
  t.is(address.body.region, 'NB');
  const subscription = await app.request('POST', `/main/v1/msp-token-subscription/${b.subscriptionId}`, {
    body: { customer_id: other.id, plan_id: b.planId, buyer_reference: 'po-1' }, auth: scoped,
  });
  t.is(subscription.status, 200, JSON.stringify(subscription.body));
  t.is(subscription.body.customer_id, b.customer.id);
  t.is(subscription.body.buyer_reference, 'po-1');
});

test.serial('GraphQL updateCustomer: an adminId the credential cannot see is not_found at $.input.adminId', async (t) => {
  const before = (await app.request('GET', `/main/v1/customer/${b.customer.id}`)).body;
  const response = await graphql(app, `mutation ($id: ID!, $input: CustomerInput!) { updateCustomer(id: $id, input: $input) { name } }`,
    { id: b.customer.id, input: { adminId: a.adminId, name: 'Moved' } }, scoped);
  t.is(response.body.errors?.[0]?.extensions?.code, 'not_found', JSON.stringify(response.body));
  t.is(response.body.errors?.[0]?.extensions?.param, '$.input.adminId');
  t.deepEqual((await app.request('GET', `/main/v1/customer/${b.customer.id}`)).body, before);
});
