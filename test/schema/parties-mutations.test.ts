// GraphQL twins of the parties' REST writes: billing addresses, direct debit mandates (defunct
// included), administrations (GraphQL and CLI only). The same services: one call through each
// transport answers the same; bad input is a validation error at its path and stores nothing.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, failure, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const ADDRESS = `mutation ($id: ID!, $i: BillingAddressInput!) { updateBillingAddress(id: $id, input: $i) {
  databaseId city country externalReference customer { databaseId } } }`;

test('updateBillingAddress creates on ext_ref and merge-updates like POST /billing-address/{id}', async (t) => {
  const customer = await createCustomer(app, adminId);
  const created = (await data(app, ADDRESS, { id: 'ext_ref.gql-addr-1', i: { partyId: customer.id, city: 'Utrecht', country: 'NL' } })).updateBillingAddress;
  t.like(created, { city: 'Utrecht', country: 'NL', externalReference: 'gql-addr-1', customer: { databaseId: customer.id } });
  const updated = (await data(app, ADDRESS, { id: created.databaseId, i: { city: 'Delft', country: null } })).updateBillingAddress;
  t.like(updated, { city: 'Delft', country: null });
  t.like(await restBody(app, `/billing-address/${created.databaseId}`), { city: 'Delft', country: null, party_id: customer.id });
  const rest = await app.request('POST', `/main/v1/billing-address/${created.databaseId}`, { body: { city: 'Gouda' } });
  t.is(rest.body.city, 'Gouda');

  t.like(await failure(app, ADDRESS, { id: 'ext_ref.gql-addr-2', i: { partyId: customer.id, country: 'XX' } }),
    { code: 'validation_failed', param: '$.input.country' });
  t.like(await failure(app, ADDRESS, { id: 'ext_ref.gql-addr-2', i: { city: 'Nowhere' } }), { param: '$.input.partyId' });
  t.is((await app.request('GET', '/main/v1/billing-address/ext_ref.gql-addr-2')).body.code, 'not_found', 'nothing stored');
});

const MANDATE_FIELDS = 'databaseId iban bankAccountName validFrom validUntil defunct customer { databaseId }';
const CREATE_MANDATE = `mutation ($i: DirectDebitMandateInput!) { createDirectDebitMandate(input: $i) { ${MANDATE_FIELDS} } }`;
const UPDATE_MANDATE = `mutation ($id: ID!, $i: DirectDebitMandateInput!) { updateDirectDebitMandate(id: $id, input: $i) { ${MANDATE_FIELDS} } }`;
const DEFUNCT_MANDATE = `mutation ($id: ID!) { markDirectDebitMandateDefunct(id: $id) { ${MANDATE_FIELDS} } }`;

test('direct debit mandates: create, merge-update, overlap, defunct, through the mandate services', async (t) => {
  const customer = await createCustomer(app, adminId);
  const base = { customerId: customer.id, bankAccountName: 'J. Jansen', iban: 'NL91ABNA0417164300' };
  const first = (await data(app, CREATE_MANDATE, { i: { ...base, validFrom: '2026-01-01T00:00:00Z' } })).createDirectDebitMandate;
  t.like(first, { iban: 'NL91ABNA0417164300', defunct: false, customer: { databaseId: customer.id } });
  t.like(await restBody(app, `/direct-debit-mandate/${first.databaseId}`), { iban: 'NL91ABNA0417164300', customer_id: customer.id });

  t.like(await failure(app, CREATE_MANDATE, { i: { ...base, validFrom: '2026-03-01T00:00:00Z' } }), { code: 'overlapping_mandate' });
  const second = (await data(app, CREATE_MANDATE, { i: { ...base, validFrom: '2026-03-01T00:00:00Z', invalidateOverlappingMandate: true } })).createDirectDebitMandate;
  t.like((await restBody(app, `/direct-debit-mandate/${first.databaseId}`)), { valid_until: '2026-03-01T00:00:00.000Z' });

  const renamed = (await data(app, UPDATE_MANDATE, { id: second.databaseId, i: { bankAccountName: 'Jan Jansen' } })).updateDirectDebitMandate;
  t.is(renamed.bankAccountName, 'Jan Jansen');
  t.like(await failure(app, UPDATE_MANDATE, { id: second.databaseId, i: { iban: 'NL00BANK0000000000' } }), { param: '$.input.iban' });
  t.like(await failure(app, CREATE_MANDATE, { i: { ...base, bankAccountName: 'x'.repeat(256) } }), { code: 'validation_failed', param: '$.input.bankAccountName' });

  const defunct = (await data(app, DEFUNCT_MANDATE, { id: second.databaseId })).markDirectDebitMandateDefunct;
  t.true(defunct.defunct);
  t.like(await restBody(app, `/direct-debit-mandate/${second.databaseId}`), { defunct: true, bank_account_name: 'Jan Jansen' });
  const list = await restBody(app, `/customer/${customer.id}/direct-debit-mandate`);
  t.is(list.items.length, 2, 'nothing stored by the refused calls');
});

const CREATE_ADMIN = 'mutation ($i: AdministrationInput!) { createAdministration(input: $i) { databaseId name currency country localeId } }';
const UPDATE_ADMIN = 'mutation ($id: ID!, $i: AdministrationInput!) { updateAdministration(id: $id, input: $i) { databaseId name currency localeId sellerName } }';

test('administrations: createAdministration and updateAdministration, for credentials without an administration limit only', async (t) => {
  const slug = `gql-adm-${process.pid}`;
  const created = (await data(app, CREATE_ADMIN, { i: { id: slug, name: 'GraphQL Admin', currency: 'EUR', country: 'NL', localeId: 'nl-NL' } })).createAdministration;
  t.deepEqual(created, { databaseId: slug, name: 'GraphQL Admin', currency: 'EUR', country: 'NL', localeId: 'nl-NL' });
  const rest = await restBody(app, '/administration');
  t.truthy((rest.items ?? rest).find((a: { id: string }) => a.id === slug));
  const updated = (await data(app, UPDATE_ADMIN, { id: slug, i: { name: 'Renamed', currency: 'USD' } })).updateAdministration;
  t.like(updated, { name: 'Renamed', currency: 'EUR' }, 'currency is set on creation only');

  t.like(await failure(app, CREATE_ADMIN, { i: { id: slug, name: 'Again', currency: 'EUR', country: 'NL' } }), { code: 'invalid_input', param: '$.input.id' });
  // Found by probing: an administration "null" was taken for no value in lists of ids (no deliveries, nothing seen by its credentials).
  for (const id of ['null', 'NULL']) t.like(await failure(app, CREATE_ADMIN, { i: { id, name: 'Null', currency: 'EUR', country: 'NL' } }), { code: 'invalid_input', param: '$.input.id' });
  t.like(await failure(app, CREATE_ADMIN, { i: { id: 'x y', name: 'Bad', currency: 'EUR', country: 'NL' } }), { param: '$.input.id' });
  t.like(await failure(app, CREATE_ADMIN, { i: { id: `${slug}-2`, name: 'Bad', currency: 'euro', country: 'NL' } }), { param: '$.input.currency' });
  t.like(await failure(app, UPDATE_ADMIN, { id: slug, i: { sellerId: 'nonsense' } }), { param: '$.input.sellerId' });
  t.like(await failure(app, UPDATE_ADMIN, { id: 'no-such-admin', i: { name: 'X' } }), { code: 'not_found' });
  // Found by probing (2026-11-29): a name of spaces was taken (it names the seller side of invoices' views).
  t.like(await failure(app, CREATE_ADMIN, { i: { id: `${slug}-blank`, name: '   ', currency: 'EUR', country: 'NL' } }), { code: 'invalid_input', param: '$.input.name' });
  t.like(await failure(app, UPDATE_ADMIN, { id: slug, i: { name: '  ' } }), { code: 'invalid_input', param: '$.input.name' });
  t.is((await restBody(app, '/administration')).items.find((a: { id: string }) => a.id === slug).name, 'Renamed', 'nothing changed');

  const limited = await app.credential({ role: 'admin', adminIds: [adminId] });
  t.like(await failure(app, UPDATE_ADMIN, { id: adminId, i: { name: 'Mine' } }, limited), { code: 'forbidden' });
  t.like(await failure(app, CREATE_ADMIN, { i: { id: `${slug}-3`, name: 'Mine', currency: 'EUR', country: 'NL' } }, limited), { code: 'forbidden' });
  t.is((await restBody(app, '/administration')).items?.find?.((a: { id: string }) => a.id === `${slug}-3`), undefined);
});
