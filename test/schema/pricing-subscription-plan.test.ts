import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let eurA: string;
let eurB: string;
let onlyA: { id: string; databaseId: string };
let shared: { id: string; databaseId: string };
test.before(async () => {
  app = await startTestApp();
  eurA = (await createAdministration(app)).id;
  eurB = (await createAdministration(app)).id;
  const CREATE = 'mutation ($input: RatePlanInput!) { createRatePlan(input: $input) { id databaseId } }';
  onlyA = (await data(app, CREATE, { input: { name: 'Only A', currency: 'EUR', adminIds: [eurA] } })).createRatePlan;
  shared = (await data(app, CREATE, { input: { name: 'Shared', currency: 'EUR' } })).createRatePlan;
});
test.after.always(async () => { await app?.close(); });

const PLAN = `id databaseId adminId name description publishFrom publishUntil ratePlanId ratePlan { name } recurringCosts { description amountExclVat period }
  useCustomerReimbursementVat externalReference`;
const CREATE = `mutation ($input: SubscriptionPlanInput!) { createSubscriptionPlan(input: $input) { ${PLAN} } }`;
const UPDATE = `mutation ($id: ID!, $input: SubscriptionPlanInput!) { updateSubscriptionPlan(id: $id, input: $input) { ${PLAN} } }`;

test('createSubscriptionPlan and updateSubscriptionPlan go through the subscription plan service, like REST', async (t) => {
  const { createSubscriptionPlan: created } = await data(app, CREATE, { input: {
    adminId: eurA, name: 'Basic', description: 'For everyone', publishFrom: '2026-01-01T01:00:00+01:00', ratePlanId: onlyA.id,
    recurringCosts: [{ description: 'Card fee', amountExclVat: '1.500', period: 'MONTH' }], externalReference: 'gql-basic',
  } });
  t.like(created, {
    adminId: eurA, name: 'Basic', description: 'For everyone', publishFrom: '2026-01-01T00:00:00.000Z', publishUntil: null,
    ratePlanId: onlyA.databaseId, ratePlan: { name: 'Only A' }, useCustomerReimbursementVat: false, externalReference: 'gql-basic',
  });
  t.deepEqual(created.recurringCosts, [{ description: 'Card fee', amountExclVat: '1.50', period: 'MONTH' }]);
  const rest = await app.request('GET', `/main/v1/msp-token-subscription-plan/${created.databaseId}`);
  t.like(rest.body, { name: 'Basic', rate_plan_id: onlyA.databaseId, recurring_costs: [{ amount_excl_vat: '1.50', period: 'month' }] });

  const { updateSubscriptionPlan: updated } = await data(app, UPDATE, { id: 'ext_ref.gql-basic', input: {
    name: 'Basic 2026', description: null, ratePlanId: shared.databaseId, recurringCosts: [], useCustomerReimbursementVat: true,
  } });
  t.like(updated, {
    id: created.id, name: 'Basic 2026', description: null, ratePlanId: shared.databaseId, ratePlan: { name: 'Shared' },
    useCustomerReimbursementVat: true, publishFrom: '2026-01-01T00:00:00.000Z',
  });
  t.deepEqual(updated.recurringCosts, []);
  const cleared = await data(app, UPDATE, { id: created.id, input: { ratePlanId: null } });
  t.like(cleared.updateSubscriptionPlan, { ratePlanId: null, ratePlan: null });

  const upserted = await data(app, UPDATE, { id: 'ext_ref.gql-upserted', input: { adminId: eurB, name: 'Upserted' } });
  t.like(upserted.updateSubscriptionPlan, { adminId: eurB, name: 'Upserted', externalReference: 'gql-upserted' });

  const found = await data(app, `query ($ref: String!, $id: ID!) { subscriptionPlans(externalReference: $ref) { edges { node { id } } }
    subscriptionPlan(id: $id) { name } byRef: subscriptionPlan(id: "ext_ref.gql-upserted") { name } }`, { ref: 'GQL-BASIC', id: created.databaseId });
  t.deepEqual(found, { subscriptionPlans: { edges: [{ node: { id: created.id } }] }, subscriptionPlan: { name: 'Basic 2026' }, byRef: { name: 'Upserted' } });
});

test('errors carry the REST code and the path in the input; nothing is changed', async (t) => {
  const badDecimal = await graphql(app, CREATE, { input: {
    adminId: eurA, name: 'Bad', recurringCosts: [{ description: 'ok', amountExclVat: '1' }, { description: 'fee', amountExclVat: '1.2345678', period: 'YEAR' }],
  } });
  t.truthy(badDecimal.body.errors?.length, 'period is required');
  const bad = await graphql(app, CREATE, { input: {
    adminId: eurA, name: 'Bad', recurringCosts: [{ description: 'ok', amountExclVat: '1', period: 'YEAR' }, { description: 'fee', amountExclVat: '1.2345678', period: 'YEAR' }],
  } });
  t.is(bad.body.data?.createSubscriptionPlan, null);
  t.like(bad.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.recurringCosts[1].amountExclVat' });
  const negative = await graphql(app, CREATE, { input: { adminId: eurA, name: 'Bad', recurringCosts: [{ description: 'x', amountExclVat: '-1', period: 'YEAR' }] } });
  t.like(negative.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.recurringCosts[0].amountExclVat' });
  const notShared = await graphql(app, CREATE, { input: { adminId: eurB, name: 'Bad', ratePlanId: onlyA.id } });
  t.like(notShared.body.errors?.[0].extensions, { code: 'rate_plan_not_shared', param: '$.input.ratePlanId' });
  const notAUuid = await graphql(app, CREATE, { input: { adminId: eurB, name: 'Bad', ratePlanId: 'nonsense' } });
  t.like(notAUuid.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.ratePlanId' });
  const window = await graphql(app, CREATE, { input: { adminId: eurB, name: 'Bad', publishFrom: '2026-02-01T00:00:00Z', publishUntil: '2026-01-01T00:00:00Z' } });
  t.like(window.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.publishUntil' });
  const unknownAdmin = await graphql(app, CREATE, { input: { adminId: 'no-such-admin', name: 'Bad' } });
  t.like(unknownAdmin.body.errors?.[0].extensions, { code: 'not_found', param: '$.input.adminId' });
  for (const id of ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'nonsense']) {
    const unknown = await graphql(app, UPDATE, { id, input: { name: 'Y' } });
    t.like(unknown.body.errors?.[0].extensions, { code: 'not_found' });
  }
  const rest = await app.request('GET', '/main/v1/msp-token-subscription-plan?page_size=1000');
  t.false(rest.body.items.some((plan: any) => plan.name === 'Bad'));
});

test('a credential sees and changes only plans of its administrations; readonly cannot mutate', async (t) => {
  const { createSubscriptionPlan: ofA } = await data(app, CREATE, { input: { adminId: eurA, name: 'Of A', ratePlanId: onlyA.id } });
  const scopedB = await app.credential({ adminIds: [eurB] });
  const hidden = await data(app, 'query ($id: ID!) { subscriptionPlan(id: $id) { id } node(id: $id) { id } }', { id: ofA.id }, scopedB);
  t.deepEqual(hidden, { subscriptionPlan: null, node: null });
  const update = await graphql(app, UPDATE, { id: ofA.id, input: { name: 'Taken over' } }, scopedB);
  t.like(update.body.errors?.[0].extensions, { code: 'not_found' });
  const create = await graphql(app, CREATE, { input: { adminId: eurA, name: 'Into A' } }, scopedB);
  t.like(create.body.errors?.[0].extensions, { code: 'not_found', param: '$.input.adminId' });

  const scopedA = await app.credential({ adminIds: [eurA] });
  const ownPlan = await data(app, 'query ($id: ID!) { subscriptionPlan(id: $id) { ratePlan { name } } }', { id: ofA.id }, scopedA);
  t.deepEqual(ownPlan.subscriptionPlan, { ratePlan: { name: 'Only A' } });

  const readonly = await app.credential({ role: 'readonly' });
  const refused = await graphql(app, CREATE, { input: { adminId: eurA, name: 'Read only' } }, readonly);
  t.is(refused.status, 403);
});
