import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const FIELDS = 'id databaseId country vatKind percentage validFrom validUntil';
const CREATE = `mutation ($input: VatRateInput!) { createVatRate(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: VatRateInput!) { updateVatRate(id: $id, input: $input) { ${FIELDS} } }`;

test('createVatRate and updateVatRate go through the VAT rate service, like REST', async (t) => {
  const { createVatRate: created } = await data(app, CREATE, {
    input: { country: 'be', vatKind: 'STANDARD', percentage: '21.000', validFrom: '2025-01-01T01:00:00+01:00' },
  });
  t.like(created, { country: 'BE', vatKind: 'STANDARD', percentage: '21.00', validFrom: '2025-01-01T00:00:00.000Z', validUntil: null });
  const rest = await app.request('GET', `/main/v1/vat-rate/${created.databaseId}`);
  t.like(rest.body, { country: 'BE', vat_kind: 'standard', percentage: '21.00' });

  const { updateVatRate: updated } = await data(app, UPDATE, { id: created.id, input: { percentage: '20.5', validUntil: '2026-01-01T00:00:00Z' } });
  t.like(updated, { id: created.id, percentage: '20.50', validFrom: '2025-01-01T00:00:00.000Z', validUntil: '2026-01-01T00:00:00.000Z' });
  const byRestId = await data(app, UPDATE, { id: created.databaseId, input: { validUntil: null } });
  t.is(byRestId.updateVatRate.validUntil, null);
});

test('vatRates pages by id and filters by country; vatRate and node find one', async (t) => {
  for (const [vatKind, percentage, validFrom, validUntil] of [
    ['STANDARD', '25', '2021-01-01T00:00:00Z', null], ['REDUCED', '12', '2021-01-01T00:00:00Z', null], ['REDUCED', '6', '2020-01-01T00:00:00Z', '2020-06-01T00:00:00Z'],
  ]) {
    await data(app, CREATE, { input: { country: 'SE', vatKind, percentage, validFrom, validUntil } });
  }
  const LIST = 'query ($after: String) { vatRates(country: "se", first: 2, after: $after) { edges { node { percentage country } } pageInfo { hasNextPage endCursor } } }';
  const first = await data(app, LIST);
  t.deepEqual(first.vatRates.edges.map((e: any) => e.node.percentage), ['25.00', '12.00']);
  t.true(first.vatRates.pageInfo.hasNextPage);
  const second = await data(app, LIST, { after: first.vatRates.pageInfo.endCursor });
  t.deepEqual(second.vatRates.edges.map((e: any) => e.node), [{ percentage: '6.00', country: 'SE' }]);
  t.false(second.vatRates.pageInfo.hasNextPage);

  const { vatRates } = await data(app, '{ vatRates(country: "SE", first: 1) { edges { node { id databaseId } } } }');
  const { id, databaseId } = vatRates.edges[0].node;
  const one = await data(app, 'query ($id: ID!, $rest: ID!) { vatRate(id: $rest) { id } node(id: $id) { ... on VatRate { databaseId } } }', { id, rest: databaseId });
  t.deepEqual(one, { vatRate: { id }, node: { databaseId } });

  const badCountry = await graphql(app, '{ vatRates(country: "Sweden") { edges { node { id } } } }');
  t.like(badCountry.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.country' });
});

test('a bad decimal, an overlap and an unknown id fail with the REST code and the input path, changing nothing', async (t) => {
  const base = { country: 'FR', vatKind: 'STANDARD', validFrom: '2025-01-01T00:00:00Z' };
  const badDecimal = await graphql(app, CREATE, { input: { ...base, percentage: '2e1' } });
  t.is(badDecimal.status, 200);
  t.is(badDecimal.body.data?.createVatRate, null);
  t.like(badDecimal.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.percentage' });
  const tooHigh = await graphql(app, CREATE, { input: { ...base, percentage: '100.01' } });
  t.like(tooHigh.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.percentage' });

  const first = await data(app, CREATE, { input: { ...base, percentage: '20' } });
  const overlapping = await graphql(app, CREATE, { input: { ...base, percentage: '19.6', validFrom: '2026-06-01T00:00:00Z' } });
  t.like(overlapping.body.errors?.[0].extensions, { code: 'overlapping_vat_rate', param: '$.input.validFrom' });
  const reversed = await graphql(app, UPDATE, { id: first.createVatRate.id, input: { validUntil: '2024-01-01T00:00:00Z' } });
  t.like(reversed.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.validUntil' });
  const badCountry = await graphql(app, CREATE, { input: { ...base, country: 'FRA', percentage: '20' } });
  t.like(badCountry.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.country' });

  const unknown = await graphql(app, UPDATE, { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', input: { percentage: '1' } });
  t.like(unknown.body.errors?.[0].extensions, { code: 'not_found' });
  const nonsense = await graphql(app, UPDATE, { id: 'nonsense', input: { percentage: '1' } });
  t.like(nonsense.body.errors?.[0].extensions, { code: 'not_found' });

  const rest = await app.request('GET', '/main/v1/vat-rate?country=FR');
  t.deepEqual(rest.body.items.map((r: any) => [r.percentage, r.valid_until]), [['20.00', null]]);
});

test('only a credential not limited to administrations changes VAT rates; a readonly one cannot mutate at all', async (t) => {
  const input = { country: 'LU', vatKind: 'STANDARD', percentage: '17', validFrom: '2025-01-01T00:00:00Z' };
  const scoped = await app.credential({ adminIds: [adminId] });
  const forbidden = await graphql(app, CREATE, { input }, scoped);
  t.is(forbidden.body.data?.createVatRate, null);
  t.like(forbidden.body.errors?.[0].extensions, { code: 'forbidden' });
  const readonly = await app.credential({ role: 'readonly' });
  const refused = await graphql(app, CREATE, { input }, readonly);
  t.is(refused.status, 403);
  t.deepEqual((await app.request('GET', '/main/v1/vat-rate?country=LU')).body.items, []);

  const { createVatRate } = await data(app, CREATE, { input });
  const update = await graphql(app, UPDATE, { id: createVatRate.id, input: { percentage: '16' } }, scoped);
  t.like(update.body.errors?.[0].extensions, { code: 'forbidden' });
  const read = await data(app, '{ vatRates(country: "LU") { edges { node { percentage } } } }', {}, scoped);
  t.deepEqual(read.vatRates.edges, [{ node: { percentage: '17.00' } }]);
});
