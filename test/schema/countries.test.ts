// GraphQL takes countries by the same rule as REST: officially assigned ISO 3166-1 alpha-2 codes
// (src/platform/countries.ts); `XX` is validation_failed at the input member or argument.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

let n = 0;
const extensionsOf = async (query: string, variables: Record<string, unknown>) => (await graphql(app, query, variables)).body.errors?.[0]?.extensions;

const CASES: [string, string, (country: string) => Record<string, unknown>, string][] = [
  ['createCustomer', 'mutation ($i: CustomerInput!) { createCustomer(input: $i) { id } }', (country) => ({ i: { adminId, name: 'Ada', country } }), '$.input.country'],
  ['createRoamingPartner', 'mutation ($i: RoamingPartnerInput!) { createRoamingPartner(input: $i) { id } }', (country) => ({ i: { name: `P${++n}`, country } }), '$.input.country'],
  ['createRoamingPartner cpoIds', 'mutation ($i: RoamingPartnerInput!) { createRoamingPartner(input: $i) { id } }',
    (country) => ({ i: { name: `P${++n}`, country: 'NL', cpoIds: [`${country}*A${String(++n).padStart(2, '0').slice(-2)}`] } }), '$.input.cpoIds[0]'],
  ['createVatRate', 'mutation ($i: VatRateInput!) { createVatRate(input: $i) { id } }',
    (country) => ({ i: { country, vatKind: 'STANDARD', percentage: '20', validFrom: `${1900 + ++n}-01-01T00:00:00Z`, validUntil: `${1900 + n}-06-01T00:00:00Z` } }), '$.input.country'],
  ['saveEvseLocation', 'mutation ($l: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $l, input: $i) { id } }',
    (country) => ({ l: `GLOC-${process.pid}-${++n}`, i: { adminId, name: 'Station', city: 'Utrecht', country, timeZone: 'Europe/Amsterdam' } }), '$.input.country'],
  ['vatRates', 'query ($c: String) { vatRates(country: $c) { edges { node { id } } } }', (country) => ({ c: country }), '$.country'],
  ['costCalculation', 'query ($i: CostCalculationInput!) { costCalculation(input: $i) { totalExclVat } }', (country) => ({
    i: { startDateTime: '2026-03-02T10:00:00+01:00', endDateTime: '2026-03-02T10:31:00+01:00', energyKwh: '10', country, timeZone: 'Europe/Amsterdam', ratePlanId: adminId },
  }), '$.input.country'],
];

for (const [name, query, variables, param] of CASES) {
  test(`${name}: an unassigned country is refused at ${param}; an assigned one passes that check`, async (t) => {
    for (const country of ['XX', 'xx', 'EU', 'XK']) {
      // A party id is checked by the roaming service (invalid_input, as any malformed party id); the rest by the yup block.
      const code = param.includes('cpoIds') ? 'invalid_input' : 'validation_failed';
      t.like(await extensionsOf(query, variables(country)), { code, param }, `${name} ${country}`);
    }
    const ok = await extensionsOf(query, variables('nl'));
    t.not(ok?.param, param, JSON.stringify(ok));
  });
}
