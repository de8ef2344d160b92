import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createSubscriptionPlan } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';
import { asGraphql, RATE_PLAN_DEFINITION, RATE_PLAN_RATES_FRAGMENT, withoutNulls } from './rest-shape.ts';

let app: TestApp;
let eurA: string;
let eurB: string;
let usd: string;
test.before(async () => {
  app = await startTestApp();
  eurA = (await createAdministration(app)).id;
  eurB = (await createAdministration(app)).id;
  usd = (await createAdministration(app, { currency: 'USD', country: 'US' })).id;
});
test.after.always(async () => { await app?.close(); });

let sequence = 0;
const PLAN = 'id databaseId name currency adminIds externalReference';
const CREATE = `mutation ($input: RatePlanInput!) { createRatePlan(input: $input) { ${PLAN} } }`;
const UPDATE = `mutation ($id: ID!, $input: RatePlanInput!) { updateRatePlan(id: $id, input: $input) { ${PLAN} } }`;
const ADD_VERSION = `mutation ($plan: ID!, $input: RatePlanVersionInput!) {
  addRatePlanVersion(ratePlanId: $plan, input: $input) { id databaseId ratePlanId validFrom ${RATE_PLAN_DEFINITION} ratePlan { name } } }
${RATE_PLAN_RATES_FRAGMENT}`;

const DEFINITION = {
  rates: { energy: { price: '0.30', step_size: '0.1' }, flat: { price: '0.5' }, max_price: '20' },
  rules: [{ name: 'DC', match: { current_type: 'DC' }, rates: { energy: { price: '0.59' } }, vat_kind: 'reduced' }],
};

async function createPlan(input: Record<string, unknown>): Promise<Record<string, any>> {
  return (await data(app, CREATE, { input: { name: `Plan ${++sequence}`, currency: 'EUR', ...input } })).createRatePlan;
}

test('createRatePlan, updateRatePlan and addRatePlanVersion go through the rate plan service, like REST', async (t) => {
  const { administration } = await data(app, 'query ($id: ID!) { administration(id: $id) { id } }', { id: eurA });
  const created = await createPlan({ name: 'Standard', adminIds: [administration.id, eurB], externalReference: `gql-rp-${sequence}` });
  t.like(created, { name: 'Standard', currency: 'EUR', adminIds: [eurA, eurB] });

  const updated = await data(app, UPDATE, { id: created.id, input: { name: 'Standard 2026', adminIds: [eurA] } });
  t.like(updated.updateRatePlan, { id: created.id, name: 'Standard 2026', currency: 'EUR', adminIds: [eurA], externalReference: created.externalReference });
  const byRef = await data(app, UPDATE, { id: `ext_ref.${created.externalReference}`, input: { currency: 'USD' } });
  t.is(byRef.updateRatePlan.currency, 'EUR', 'currency is set on create only');
  const upserted = await data(app, UPDATE, { id: 'ext_ref.gql-new-plan', input: { name: 'Upserted', currency: 'USD', adminIds: [usd] } });
  t.like(upserted.updateRatePlan, { name: 'Upserted', currency: 'USD', adminIds: [usd], externalReference: 'gql-new-plan' });

  const { addRatePlanVersion: version } = await data(app, ADD_VERSION, {
    plan: created.databaseId, input: { validFrom: '2026-01-01T01:00:00+01:00', definition: DEFINITION },
  });
  t.like(version, { ratePlanId: created.databaseId, validFrom: '2026-01-01T00:00:00.000Z', ratePlan: { name: 'Standard 2026' } });
  const rest = await app.request('GET', `/main/v1/rate-plan/${created.databaseId}/version/${version.databaseId}`);
  t.deepEqual(withoutNulls(version.definition), asGraphql(rest.body.definition, ['vatKind']), 'the object types hold what REST answers');
  t.is(version.definition.rates.energy.price, '0.30');
  t.is(version.definition.rates.flat.price, '0.50', 'amounts are normalized decimal strings');
  t.is(typeof version.definition.rates.maxPrice, 'string');
  t.like(version.definition.rules[0], { name: 'DC', match: { currentType: 'DC', countries: null }, vatKind: 'REDUCED' });

  const { ratePlan } = await data(app, `query ($id: ID!) { ratePlan(id: $id) { name versions { edges { node { id validFrom } } } } }`, {
    id: `ext_ref.${created.externalReference}`,
  });
  t.deepEqual(ratePlan, { name: 'Standard 2026', versions: { edges: [{ node: { id: version.id, validFrom: '2026-01-01T00:00:00.000Z' } }] } });
});

test('ratePlans pages by id and filters by currency; ratePlan, node and nodes find one', async (t) => {
  const eur = [await createPlan({}), await createPlan({ adminIds: [eurB] })];
  const dollars = await createPlan({ currency: 'USD' });
  const LIST = 'query ($after: String) { ratePlans(currency: "EUR", first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }';
  const seen: string[] = [];
  let after: string | null = null;
  do {
    const page: Record<string, any> = (await data(app, LIST, { after })).ratePlans;
    seen.push(...page.edges.map((e: any) => e.node.id));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  t.true(eur.every((plan) => seen.includes(plan.id)));
  t.false(seen.includes(dollars.id));

  const found = await data(app, 'query ($id: ID!, $rest: ID!) { ratePlan(id: $rest) { id } nodes(ids: [$id]) { ... on RatePlan { name currency } } }', {
    id: dollars.id, rest: dollars.databaseId,
  });
  t.deepEqual(found, { ratePlan: { id: dollars.id }, nodes: [{ name: dollars.name, currency: 'USD' }] });
  const none = await data(app, '{ ratePlan(id: "ext_ref.nobody-has-this") { id } }');
  t.is(none.ratePlan, null);
  const badCurrency = await graphql(app, '{ ratePlans(currency: "euro") { edges { node { id } } } }');
  t.like(badCurrency.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.currency' });
});

test('errors carry the REST code and the path in the input; nothing is changed', async (t) => {
  const plan = await createPlan({ adminIds: [eurA] });
  const badDecimal = await graphql(app, ADD_VERSION, {
    plan: plan.id, input: { validFrom: '2026-01-01T00:00:00Z', definition: { rates: { energy: { price: 0.3, step_size: '1e2' } } } },
  });
  t.is(badDecimal.body.data?.addRatePlanVersion, null);
  t.like(badDecimal.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.definition.rates.energy.price' });
  t.deepEqual(badDecimal.body.errors?.[0].extensions?.details.map((d: any) => d.param), [
    '$.input.definition.rates.energy.price', '$.input.definition.rates.energy.step_size',
  ]);

  await data(app, ADD_VERSION, { plan: plan.id, input: { validFrom: '2026-01-01T00:00:00Z', definition: DEFINITION } });
  const duplicate = await graphql(app, ADD_VERSION, { plan: plan.id, input: { validFrom: '2026-01-01T00:00:00Z', definition: DEFINITION } });
  t.like(duplicate.body.errors?.[0].extensions, { code: 'duplicate', param: '$.input.validFrom' });

  const mismatch = await graphql(app, UPDATE, { id: plan.id, input: { adminIds: [eurA, usd] } });
  t.like(mismatch.body.errors?.[0].extensions, { code: 'currency_mismatch', param: '$.input.adminIds[1]' });
  const unknownAdmin = await graphql(app, CREATE, { input: { name: 'X', currency: 'EUR', adminIds: ['no-such-admin'] } });
  t.like(unknownAdmin.body.errors?.[0].extensions, { code: 'not_found', param: '$.input.adminIds[0]' });
  const noName = await graphql(app, CREATE, { input: { currency: 'EUR' } });
  t.like(noName.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.name' });
  const badCurrency = await graphql(app, CREATE, { input: { name: 'X', currency: 'eur' } });
  t.like(badCurrency.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.currency' });

  for (const id of ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'nonsense']) {
    const unknown = await graphql(app, ADD_VERSION, { plan: id, input: { validFrom: '2027-01-01T00:00:00Z', definition: DEFINITION } });
    t.like(unknown.body.errors?.[0].extensions, { code: 'not_found' });
    const update = await graphql(app, UPDATE, { id, input: { name: 'Y' } });
    t.like(update.body.errors?.[0].extensions, { code: 'not_found' });
  }

  const rest = await app.request('GET', `/main/v1/rate-plan/${plan.databaseId}/version`);
  t.is(rest.body.items.length, 1);
  t.deepEqual((await app.request('GET', `/main/v1/rate-plan/${plan.databaseId}`)).body.admin_ids, [eurA]);
});

test('a credential of another administration sees no rate plan not shared with it, and cannot change one', async (t) => {
  const onlyA = await createPlan({ adminIds: [eurA] });
  const both = await createPlan({ adminIds: [eurA, eurB] });
  const shared = await createPlan({});
  const dollars = await createPlan({ currency: 'USD' });
  const version = (await data(app, ADD_VERSION, { plan: onlyA.id, input: { validFrom: '2026-01-01T00:00:00Z', definition: DEFINITION } })).addRatePlanVersion;
  const scopedB = await app.credential({ adminIds: [eurB] });

  const { ratePlans } = await data(app, '{ ratePlans(first: 100) { edges { node { id } } } }', {}, scopedB);
  const ids = ratePlans.edges.map((e: any) => e.node.id);
  t.true(ids.includes(shared.id));
  t.true(ids.includes(both.id));
  t.false(ids.includes(onlyA.id));
  t.false(ids.includes(dollars.id));
  const hidden = await data(app, `query ($plan: ID!, $version: ID!, $rest: ID!) {
    ratePlan(id: $rest) { id } nodes(ids: [$plan, $version]) { id } }`, { plan: onlyA.id, version: version.id, rest: onlyA.databaseId }, scopedB);
  t.deepEqual(hidden, { ratePlan: null, nodes: [null, null] });
  const sharedWithBoth = await data(app, `query ($id: ID!, $rest: ID!) {
    ratePlan(id: $rest) { adminIds } node(id: $id) { ... on RatePlan { adminIds } } ratePlans(first: 100) { edges { node { id adminIds } } } }`,
  { id: both.id, rest: both.databaseId }, scopedB);
  t.deepEqual(sharedWithBoth.ratePlan.adminIds, [eurB], 'A is not named to B');
  t.deepEqual(sharedWithBoth.node.adminIds, [eurB]);
  t.deepEqual(sharedWithBoth.ratePlans.edges.find((e: any) => e.node.id === both.id).node.adminIds, [eurB]);

  const addVersion = await graphql(app, ADD_VERSION, { plan: onlyA.id, input: { validFrom: '2027-01-01T00:00:00Z', definition: DEFINITION } }, scopedB);
  t.like(addVersion.body.errors?.[0].extensions, { code: 'not_found' });
  const changeShared = await graphql(app, UPDATE, { id: shared.id, input: { name: 'Taken over' } }, scopedB);
  t.like(changeShared.body.errors?.[0].extensions, { code: 'forbidden' });
  const shareWithAll = await graphql(app, CREATE, { input: { name: 'Everyone', currency: 'EUR' } }, scopedB);
  t.like(shareWithAll.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.adminIds' });
  const own = await graphql(app, CREATE, { input: { name: 'Own', currency: 'EUR', adminIds: [eurB] } }, scopedB);
  t.like(own.body.data?.createRatePlan, { name: 'Own', adminIds: [eurB] });

  const scopedA = await app.credential({ adminIds: [eurA] });
  const visibleToA = await data(app, 'query ($id: ID!) { node(id: $id) { ... on RatePlanVersion { ratePlan { id } } } }', { id: version.id }, scopedA);
  t.deepEqual(visibleToA.node, { ratePlan: { id: onlyA.id } });

  const readonly = await app.credential({ role: 'readonly' });
  const refused = await graphql(app, CREATE, { input: { name: 'Read only', currency: 'EUR' } }, readonly);
  t.is(refused.status, 403);
});

test('updateRatePlan may not drop an administration whose subscription plan prices with the plan, as REST; nothing is changed', async (t) => {
  const plan = await createPlan({ adminIds: [eurA, eurB] });
  await createSubscriptionPlan(app, eurB, { rate_plan_id: plan.databaseId });
  const narrowed = await graphql(app, UPDATE, { id: plan.id, input: { name: 'Only A', adminIds: [eurA] } });
  t.is(narrowed.body.data?.updateRatePlan, null);
  t.like(narrowed.body.errors?.[0].extensions, { code: 'rate_plan_not_shared', param: '$.input.adminIds' });
  t.like((await app.request('GET', `/main/v1/rate-plan/${plan.databaseId}`)).body, { name: plan.name, admin_ids: [eurA, eurB] });
  const keepsB = await data(app, UPDATE, { id: plan.id, input: { adminIds: [eurB] } });
  t.deepEqual(keepsB.updateRatePlan.adminIds, [eurB]);
});
