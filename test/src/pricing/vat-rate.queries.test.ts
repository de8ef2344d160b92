// REST GET /vat-rate and GraphQL `vatRates` read one query (src/pricing/vat-rate.queries.ts).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  for (const [country, kind] of [['NL', 'standard'], ['BE', 'standard'], ['NL', 'reduced']]) {
    const created = await app.request('POST', '/main/v1/vat-rate', { body: { country, vat_kind: kind, percentage: '9', valid_from: '2026-01-01T00:00:00Z' } });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  }
});
test.after.always(async () => { await app?.close(); });

test('REST and GraphQL list the same VAT rates, with and without the country filter (any casing)', async (t) => {
  for (const country of [undefined, 'nl', 'BE']) {
    const rest = await app.request('GET', `/main/v1/vat-rate${country ? `?country=${country}` : ''}`);
    t.is(rest.status, 200);
    const graph: any = (await data(app, 'query ($country: String) { vatRates(country: $country) { edges { cursor node { databaseId } } } }', { country })).vatRates;
    t.deepEqual(graph.edges.map((e: any) => e.node.databaseId), rest.body.items.map((r: any) => r.id), String(country));
    t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((r: any) => r.id));
    t.is(rest.body.items.length, country === undefined ? 3 : country === 'nl' ? 2 : 1);
  }
});
