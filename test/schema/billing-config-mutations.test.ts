// GraphQL writes of billing configuration (settings, exchange rates, series, product categories),
// custom items, delivery states, a box's documents and an external document at finalize call the
// services REST calls: each answers what REST then answers, bad input is refused with its place, and
// nothing is stored.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { configureBilling, createSeries, SELLER } from '../helpers/billing-factories.ts';
import { createAdministration, createCustomer, okCall } from '../helpers/factories.ts';
import { ensureVatRate } from '../helpers/session-factories.ts';
import { data, failure as failureOf, graphql, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
/** A credential limited to another administration. */
let foreign: Auth;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
  adminId = (await createAdministration(app)).id;
  await configureBilling(app, adminId);
  foreign = await app.credential({ role: 'admin', adminIds: [(await createAdministration(app)).id] });
});
test.after.always(async () => { await app?.close(); });

let counter = 0;
const next = () => `${process.pid}${++counter}`.slice(-6);
const rest = (path: string) => restBody(app, path);
const failure = (query: string, variables: Record<string, unknown>, auth?: Auth) => failureOf(app, query, variables, auth);

// --- billing settings ---

const SETTINGS_FIELDS = `adminId timeZone invoicingPeriod paymentMethods defaultPaymentMethod paymentTermDays localeId vatAccountingCurrency
  seller { name street postalCode city country vatNumber companyRegNum email phone website iban bic bankAccountName }`;
const UPDATE_SETTINGS = `mutation ($a: String!, $i: BillingSettingsInput!) { updateBillingSettings(adminId: $a, input: $i) { ${SETTINGS_FIELDS} } }`;

const settingsFromRest = (s: any) => ({
  adminId: s.admin_id, timeZone: s.time_zone, invoicingPeriod: s.invoicing_period, paymentMethods: s.payment_methods,
  defaultPaymentMethod: s.default_payment_method, paymentTermDays: s.payment_term_days, localeId: s.locale_id, vatAccountingCurrency: s.vat_accounting_currency,
  seller: {
    name: s.seller.name, street: s.seller.street, postalCode: s.seller.postal_code, city: s.seller.city, country: s.seller.country,
    vatNumber: s.seller.vat_number, companyRegNum: s.seller.company_reg_num, email: s.seller.email, phone: s.seller.phone, website: s.seller.website,
    iban: s.seller.iban, bic: s.seller.bic, bankAccountName: s.seller.bank_account_name,
  },
});

test('updateBillingSettings merges what REST then answers (billingSettings reads it); bad input and a foreign credential change nothing', async (t) => {
  const admin = (await createAdministration(app)).id;
  const saved = (await data(app, UPDATE_SETTINGS, { a: admin, i: {
    timeZone: 'Europe/Berlin', invoicingPeriod: 'quarter', paymentMethods: ['bank_transfer', 'direct_debit'], paymentTermDays: 30,
    vatAccountingCurrency: 'USD', seller: { name: SELLER.name, postalCode: SELLER.postal_code, country: 'NL', website: 'www.charge.example' },
  } })).updateBillingSettings;
  t.like(saved, { adminId: admin, timeZone: 'Europe/Berlin', invoicingPeriod: 'quarter', paymentTermDays: 30, seller: { postalCode: '3511 ED', city: null } });
  t.deepEqual(saved, settingsFromRest(await rest(`/administration/${admin}/billing-settings`)));
  const merged = (await data(app, UPDATE_SETTINGS, { a: admin, i: { paymentTermDays: null, seller: { city: 'Utrecht', website: null } } })).updateBillingSettings;
  t.like(merged, { paymentTermDays: 14, invoicingPeriod: 'quarter', seller: { name: SELLER.name, city: 'Utrecht', website: null } });
  const stored = await rest(`/administration/${admin}/billing-settings`);
  t.deepEqual(merged, settingsFromRest(stored));
  t.deepEqual((await data(app, `query ($a: String!) { billingSettings(adminId: $a) { ${SETTINGS_FIELDS} } }`, { a: admin })).billingSettings, merged);

  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { paymentTermDays: 400, timeZone: 'Europe/Paris' } }), { code: 'invalid_input', param: '$.input.paymentTermDays' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { invoicingPeriod: 'week' } }), { code: 'invalid_input', param: '$.input.invoicingPeriod' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { paymentMethods: ['bank_transfer', 'barter'] } }), { code: 'invalid_input', param: '$.input.paymentMethods[1]' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { seller: { website: 'not a site' } } }), { code: 'invalid_input', param: '$.input.seller.website' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { seller: { iban: 'X'.repeat(35) } } }), { code: 'validation_failed', param: '$.input.seller.iban' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { paymentTermDays: 1 } }, foreign), { code: 'not_found', data: { updateBillingSettings: null } });
  t.deepEqual(await rest(`/administration/${admin}/billing-settings`), stored, 'nothing changed');
});

test('updateBillingSettings refuses another time zone or invoicing period once billing started, as REST does (one service)', async (t) => {
  const admin = (await createAdministration(app)).id;
  await configureBilling(app, admin);
  await createSeries(app, admin);
  const customer = await createCustomer(app, admin);
  // A custom item opens the administration's first review-set: billing has started.
  await okCall(app, 'POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: admin, description: 'Parking', quantity: '1', unit: 'pcs',
    unit_price_excl_vat: '5.00', vat_kind: 'standard',
  });
  const stored = await rest(`/administration/${admin}/billing-settings`);
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { invoicingPeriod: 'year' } }), { code: 'invalid_state', param: '$.input.invoicingPeriod' });
  t.like(await failure(UPDATE_SETTINGS, { a: admin, i: { timeZone: 'UTC', paymentTermDays: 30 } }), { code: 'invalid_state', param: '$.input.timeZone' });
  t.deepEqual(await rest(`/administration/${admin}/billing-settings`), stored, 'nothing changed');
});

// --- exchange rates ---

const SET_RATE = `mutation ($a: String!, $c: String!, $d: String!, $r: String!) {
  setBillingExchangeRate(adminId: $a, currency: $c, date: $d, rate: $r) { databaseId adminId currency date rate createdAt } }`;

test('setBillingExchangeRate sets and replaces the rate REST then lists; bad input and a foreign credential change nothing', async (t) => {
  const admin = (await createAdministration(app)).id;
  const set = await data(app, SET_RATE, { a: admin, c: 'USD', d: '2026-11-02', r: '1.0850' });
  const replaced = (await data(app, SET_RATE, { a: admin, c: 'USD', d: '2026-11-02', r: '1.09' })).setBillingExchangeRate;
  t.is(replaced.databaseId, set.setBillingExchangeRate.databaseId);
  const stored = (await rest(`/administration/${admin}/billing-exchange-rate`)).items;
  t.deepEqual([replaced], stored.map((r: any) => ({ databaseId: r.id, adminId: r.admin_id, currency: r.currency, date: r.date, rate: r.rate, createdAt: r.created_at })));
  t.is(replaced.rate, '1.09');

  const bad = { a: admin, c: 'USD', d: '2026-11-03', r: '1' };
  t.like(await failure(SET_RATE, { ...bad, c: 'usd' }), { code: 'invalid_input', param: '$.currency' });
  t.like(await failure(SET_RATE, { ...bad, c: 'DOLLAR' }), { code: 'validation_failed', param: '$.currency' });
  t.like(await failure(SET_RATE, { ...bad, d: '3 Nov' }), { code: 'invalid_input', param: '$.date' });
  t.like(await failure(SET_RATE, { ...bad, r: '0' }), { code: 'invalid_input', param: '$.rate' });
  t.like(await failure(SET_RATE, bad, foreign), { code: 'not_found', data: { setBillingExchangeRate: null } });
  t.deepEqual((await rest(`/administration/${admin}/billing-exchange-rate`)).items, stored, 'nothing changed');
});

// --- series and product categories ---

const SERIES_FIELDS = 'databaseId adminId code name externalReference primaryDocumentType documentSource itemSources negateDocumentAmounts createdAt updatedAt';
const CREATE_SERIES = `mutation ($i: BillingSeriesInput!) { createBillingSeries(input: $i) { ${SERIES_FIELDS} } }`;
const UPDATE_SERIES = `mutation ($id: ID!, $i: BillingSeriesInput!) { updateBillingSeries(id: $id, input: $i) { ${SERIES_FIELDS} } }`;
const seriesFromRest = (s: any) => ({
  databaseId: s.id, adminId: s.admin_id, code: s.code, name: s.name, externalReference: s.external_reference, primaryDocumentType: s.primary_document_type,
  documentSource: s.document_source, itemSources: s.item_sources, negateDocumentAmounts: s.negate_document_amounts, createdAt: s.created_at, updatedAt: s.updated_at,
});
const CREATE_CATEGORY = 'mutation ($i: BillingProductCategoryInput!) { createBillingProductCategory(input: $i) { databaseId adminId code description builtIn } }';

test('billing series and product categories: create and update answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const admin = (await createAdministration(app)).id;
  const code = `SB${next()}`;
  const reference = `gql-series-${next()}`;
  const created = (await data(app, CREATE_SERIES, { i: { adminId: admin, code, externalReference: reference, primaryDocumentType: 'self_billing_invoice' } }))
    .createBillingSeries;
  t.like(created, { adminId: admin, code, documentSource: 'service', itemSources: [], negateDocumentAmounts: true });
  t.deepEqual(created, seriesFromRest(await rest(`/billing-series/${created.databaseId}`)));
  const updated = (await data(app, UPDATE_SERIES, { id: reference, i: { name: 'Self-billing', itemSources: ['custom'], adminId: 'ignored' } })).updateBillingSeries;
  t.like(updated, { name: 'Self-billing', itemSources: ['custom'], adminId: admin, code });
  const stored = await rest(`/billing-series/${created.databaseId}`);
  t.deepEqual(updated, seriesFromRest(stored));

  const category = (await data(app, CREATE_CATEGORY, { i: { adminId: admin, code: 'parking', description: 'Parking' } })).createBillingProductCategory;
  t.like(category, { adminId: admin, code: 'parking', description: 'Parking', builtIn: false });
  const categories = (await rest(`/billing-product-category?admin_id=${admin}`)).items;
  t.deepEqual(categories.find((c: any) => c.code === 'parking'), { id: category.databaseId, admin_id: admin, code: 'parking', description: 'Parking', built_in: false });

  t.like(await failure(CREATE_SERIES, { i: { adminId: admin, code: 'bad code' } }), { code: 'invalid_input', param: '$.input.code' });
  t.like(await failure(CREATE_SERIES, { i: { adminId: admin, code, externalReference: `other-${next()}` } }), { code: 'duplicate', param: '$.input.code' });
  t.like(await failure(UPDATE_SERIES, { id: created.databaseId, i: { primaryDocumentType: 'receipt' } }), { code: 'invalid_input', param: '$.input.primaryDocumentType' });
  t.like(await failure(UPDATE_SERIES, { id: created.databaseId, i: { itemSources: ['x'.repeat(65)] } }), { code: 'validation_failed', param: '$.input.itemSources[0]' });
  t.like(await failure(UPDATE_SERIES, { id: created.databaseId, i: { name: 'Taken over' } }, foreign), { code: 'not_found', data: { updateBillingSeries: null } });
  t.like(await failure(CREATE_SERIES, { i: { adminId: admin, code: 'FOREIGN' } }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.like(await failure(CREATE_CATEGORY, { i: { adminId: admin, code: 'Charging', description: 'Built in' } }), { code: 'duplicate', param: '$.input.code' });
  t.like(await failure(CREATE_CATEGORY, { i: { adminId: admin, code: 'parking', description: 'Again' } }), { code: 'duplicate', param: '$.input.code' });
  t.like(await failure(CREATE_CATEGORY, { i: { adminId: admin, code: 'valet', description: 'Foreign' } }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.deepEqual(await rest(`/billing-series/${created.databaseId}`), stored, 'nothing changed');
  t.is((await rest(`/billing-series?admin_id=${admin}`)).items.length, 1, 'nothing created');
  t.deepEqual((await rest(`/billing-product-category?admin_id=${admin}`)).items, categories);
});

// --- custom items, delivery states and a box's documents ---

const BILL = `mutation ($i: BillingCustomItemInput!, $r: String) { billCustomItem(input: $i, externalReference: $r) {
  itemId boxId box { databaseId state } externalReference amountExclVat vatPercentage vatCountry duplicate } }`;
const itemInput = (partyId: string, fields: Record<string, unknown> = {}) => ({
  timeZone: 'Europe/Amsterdam', date: '2026-11-02', partyId, adminId, description: 'Service', quantity: '3', unit: 'pcs', unitPriceExclVat: '2.50',
  vatKind: 'standard', ...fields,
});
const DELIVERY_FIELDS = 'databaseId boxId channel state externalReference detail createdAt updatedAt';
const CREATE_DELIVERY = `mutation ($i: CreateBillingBoxDeliveryInput!) { createBillingBoxDelivery(input: $i) { ${DELIVERY_FIELDS} box { databaseId } } }`;
const UPDATE_DELIVERY = `mutation ($id: ID!, $i: BillingBoxDeliveryInput!) { updateBillingBoxDelivery(id: $id, input: $i) { ${DELIVERY_FIELDS} } }`;
const deliveryFromRest = (d: any) => ({
  databaseId: d.id, boxId: d.box_id, channel: d.channel, state: d.state, externalReference: d.external_reference, detail: d.detail,
  createdAt: d.created_at, updatedAt: d.updated_at,
});
const ADD_DOCUMENT = `mutation ($b: ID!, $f: String!, $c: String!, $d: [String!]!) {
  addBillingBoxDocument(boxId: $b, filename: $f, contentType: $c, data: $d) { databaseId state } }`;
const REMOVE_DOCUMENT = 'mutation ($b: ID!, $f: String!) { removeBillingBoxDocument(boxId: $b, filename: $f) { databaseId state } }';

test('billCustomItem bills as REST, idempotently by reference; deliveries and documents of its box as REST; bad input and a foreign credential change nothing', async (t) => {
  await createSeries(app, adminId);
  const customer = await createCustomer(app, adminId);
  const reference = `CI-${next()}`;
  const billed = (await data(app, BILL, { i: itemInput(customer.id), r: reference })).billCustomItem;
  t.like(billed, { externalReference: reference, amountExclVat: '7.50', vatCountry: 'NL', duplicate: false, box: { databaseId: billed.boxId, state: 'OPEN' } });
  const items = (await rest(`/billing-box/${billed.boxId}/custom-billing-input`)).items;
  t.like(items, [{ item_id: billed.itemId, external_reference: reference, amount_excl_vat: '7.50', quantity: '3.000000', unit_price_excl_vat: '2.500000' }]);
  // The same item over REST is the item billed before.
  const again = await app.request('POST', `/main/v1/billing-custom-item/${reference}`, { body: {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: adminId, description: 'Service', quantity: '3.0', unit: 'pcs',
    unit_price_excl_vat: '2.5', vat_kind: 'standard',
  } });
  t.like(again.body, { item_id: billed.itemId, box_id: billed.boxId, duplicate: true, vat_percentage: billed.vatPercentage });
  const duplicate = (await data(app, BILL, { i: itemInput(customer.id, { quantity: '3.00' }), r: reference })).billCustomItem;
  t.like(duplicate, { itemId: billed.itemId, duplicate: true });

  t.like(await failure(BILL, { i: itemInput(customer.id, { quantity: '4' }), r: reference }), { code: 'conflicting_resubmission', param: '$.input.quantity' });
  t.like(await failure(BILL, { i: itemInput(customer.id, { vatKind: 'weird' }) }), { code: 'invalid_input', param: '$.input.vatKind' });
  t.like(await failure(BILL, { i: itemInput(customer.id, { date: '2026-11-31' }) }), { code: 'invalid_input', param: '$.input.date' });
  t.like(await failure(BILL, { i: itemInput(customer.id, { unit: 'u'.repeat(33) }) }), { code: 'validation_failed', param: '$.input.unit' });
  t.like(await failure(BILL, { i: itemInput(customer.id, { productCategory: 'nothing-like-it' }) }), { code: 'not_found', param: '$.input.productCategory' });
  t.like(await failure(BILL, { i: itemInput(customer.id) }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.deepEqual((await rest(`/billing-box/${billed.boxId}/custom-billing-input`)).items, items, 'nothing billed');

  const delivery = (await data(app, CREATE_DELIVERY, { i: { boxId: billed.boxId, channel: 'email', detail: 'to billing@' } })).createBillingBoxDelivery;
  t.like(delivery, { boxId: billed.boxId, box: { databaseId: billed.boxId }, channel: 'email', state: 'pending', detail: 'to billing@' });
  const sent = (await data(app, UPDATE_DELIVERY, { id: delivery.databaseId, i: { state: 'sent', detail: null } })).updateBillingBoxDelivery;
  t.like(sent, { state: 'sent', detail: null, channel: 'email' });
  const deliveries = (await rest(`/billing-box-delivery-state?box_id=${billed.boxId}`)).items;
  t.deepEqual([sent], deliveries.map(deliveryFromRest));
  t.like(await failure(CREATE_DELIVERY, { i: { boxId: billed.boxId, channel: 'pigeon' } }), { code: 'invalid_input', param: '$.input.channel' });
  t.like(await failure(UPDATE_DELIVERY, { id: delivery.databaseId, i: { detail: 'd'.repeat(2001) } }), { code: 'validation_failed', param: '$.input.detail' });
  t.like(await failure(CREATE_DELIVERY, { i: { boxId: billed.boxId, channel: 'email' } }, foreign), { code: 'not_found', param: '$.input.boxId' });
  t.like(await failure(UPDATE_DELIVERY, { id: delivery.databaseId, i: { state: 'failed' } }, foreign), { code: 'not_found' });
  t.deepEqual((await rest(`/billing-box-delivery-state?box_id=${billed.boxId}`)).items, deliveries, 'nothing changed');

  const pdf = Buffer.from('%PDF-1.4\n%attachment\n');
  const base64 = pdf.toString('base64');
  const added = (await data(app, ADD_DOCUMENT, { b: billed.boxId, f: 'terms.pdf', c: 'application/pdf', d: [base64.slice(0, 8), base64.slice(8)] }))
    .addBillingBoxDocument;
  t.is(added.databaseId, billed.boxId);
  const stored = await app.request('GET', `/main/v1/billing-box/${billed.boxId}/document/terms.pdf`);
  t.is(stored.status, 200);
  t.deepEqual(stored.body as Buffer, pdf);
  t.like(await failure(ADD_DOCUMENT, { b: billed.boxId, f: 'notes.txt', c: 'text/plain', d: [base64] }), { code: 'validation_failed', param: '$.contentType' });
  t.like(await failure(ADD_DOCUMENT, { b: billed.boxId, f: 'notes.pdf', c: 'application/pdf', d: ['not base64!'] }), { code: 'invalid_input', param: '$.data' });
  t.like(await failure(ADD_DOCUMENT, { b: billed.boxId, f: '../escape.pdf', c: 'application/pdf', d: [base64] }), { code: 'invalid_input', param: '$' },
    'a bad path segment in REST');
  t.like(await failure(ADD_DOCUMENT, { b: billed.boxId, f: 'terms.pdf', c: 'application/pdf', d: ['AAAA'] }, foreign), { code: 'not_found' });
  t.like(await failure(REMOVE_DOCUMENT, { b: billed.boxId, f: 'terms.pdf' }, foreign), { code: 'not_found' });
  t.deepEqual((await app.request('GET', `/main/v1/billing-box/${billed.boxId}/document/terms.pdf`)).body as Buffer, pdf, 'nothing changed');
  t.is((await app.request('GET', `/main/v1/billing-box/${billed.boxId}/document/notes.pdf`)).status, 400, 'nothing stored');

  t.like((await data(app, REMOVE_DOCUMENT, { b: billed.boxId, f: 'terms.pdf' })).removeBillingBoxDocument, { databaseId: billed.boxId });
  t.like((await app.request('GET', `/main/v1/billing-box/${billed.boxId}/document/terms.pdf`)).body, { code: 'document_missing' });
  t.like(await failure(REMOVE_DOCUMENT, { b: billed.boxId, f: 'terms.pdf' }), { code: 'document_missing' });
});

const FINALIZE = `mutation ($id: ID!, $doc: BillingExternalDocumentInput) {
  finalizeBillingBox(id: $id, document: $doc) { databaseId state invoiceCode invoiceDate } }`;

test('finalizeBillingBox takes the document of an external system as REST does; without one, with a bad or impossible date or a control in its code, nothing changes', async (t) => {
  const admin = (await createAdministration(app)).id;
  await configureBilling(app, admin);
  await createSeries(app, admin, { document_source: 'external' });
  const customer = await createCustomer(app, admin);
  const { boxId } = (await data(app, BILL, { i: itemInput(customer.id, { adminId: admin }) })).billCustomItem;
  await data(app, 'mutation ($id: ID!) { closeBillingBox(id: $id) { state } approveBillingBox(id: $id) { state } }', { id: boxId });
  const xml = Buffer.from('<?xml version="1.0"?><Invoice/>');
  const doc = { contentType: 'application/xml', data: [xml.toString('base64')], invoiceCode: `EXT-${next()}`, invoiceDate: '2026-12-01' };

  t.like(await failure(FINALIZE, { id: boxId }), { code: 'invalid_input', param: '$.document' });
  t.like(await failure(FINALIZE, { id: boxId, doc: { ...doc, invoiceDate: '1 Dec' } }), { code: 'validation_failed', param: '$.document.invoiceDate' });
  // Found by probing (2026-11-29): a date of the right pattern but no real day finalized the box (REST: parseDate).
  for (const invoiceDate of ['2026-02-30', '2026-13-45', '0000-00-00']) {
    t.like(await failure(FINALIZE, { id: boxId, doc: { ...doc, invoiceDate } }), { code: 'validation_failed', param: '$.document.invoiceDate' }, invoiceDate);
  }
  // An invoice code is an identifier: no tab or line break (REST: a query value).
  t.like(await failure(FINALIZE, { id: boxId, doc: { ...doc, invoiceCode: `EXT\n${next()}` } }), { code: 'validation_failed', param: '$.document.invoiceCode' });
  t.like(await failure(FINALIZE, { id: boxId, doc: { ...doc, data: ['%%%%'] } }), { code: 'invalid_input', param: '$.document.data' });
  t.like(await failure(FINALIZE, { id: boxId, doc }, foreign), { code: 'not_found' });
  t.is((await rest(`/billing-box/${boxId}`)).state, 'approved', 'nothing changed');

  const finalized = (await data(app, FINALIZE, { id: boxId, doc })).finalizeBillingBox;
  t.deepEqual(finalized, { databaseId: boxId, state: 'FINALIZED', invoiceCode: doc.invoiceCode, invoiceDate: '2026-12-01' });
  const stored = await rest(`/billing-box/${boxId}`);
  t.like(stored, { state: 'finalized', invoice_code: doc.invoiceCode, invoice_date: '2026-12-01' });
  const primary = await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } });
  t.is(primary.body, xml.toString('utf8'));
});

test('what REST refuses GraphQL refuses: a customer of another administration, a blank description or unit, a payment method of none, an invoice code twice', async (t) => {
  // Found by probing (2026-11-29), the same services as REST.
  const other = (await createAdministration(app)).id;
  await configureBilling(app, other);
  await createSeries(app, other, { document_source: 'external' });
  const own = await createCustomer(app, other);
  const foreignCustomer = await createCustomer(app, adminId);
  t.like(await failure(BILL, { i: itemInput(foreignCustomer.id, { adminId: other }) }), { code: 'not_found', param: '$.input.partyId' });
  t.like(await failure(BILL, { i: itemInput(own.id, { adminId: other, description: '  ' }) }), { code: 'invalid_input', param: '$.input.description' });
  t.like(await failure(BILL, { i: itemInput(own.id, { adminId: other, unit: '' }) }), { code: 'invalid_input', param: '$.input.unit' });
  const boxes = [];
  for (let i = 0; i < 2; i++) boxes.push((await data(app, BILL, { i: itemInput((await createCustomer(app, other)).id, { adminId: other }) })).billCustomItem.boxId);
  const CLOSE = 'mutation ($id: ID!, $p: BillingPaymentInput) { closeBillingBox(id: $id, payment: $p) { state paymentMethod } }';
  t.like(await failure(CLOSE, { id: boxes[0], p: { paymentMethod: 'constructor' } }), { code: 'validation_failed', param: '$.payment.paymentMethod' });
  t.is((await rest(`/billing-box/${boxes[0]}`)).state, 'open', 'nothing changed');
  for (const id of boxes) {
    t.like((await data(app, CLOSE, { id, p: { paymentMethod: 'card' } })).closeBillingBox, { state: 'CLOSED', paymentMethod: 'card' });
    await data(app, 'mutation ($id: ID!) { approveBillingBox(id: $id) { state } }', { id });
  }
  const doc = { contentType: 'application/pdf', data: [Buffer.from('%PDF-1.4').toString('base64')], invoiceCode: `EXT-${next()}`, invoiceDate: '2026-12-01' };
  t.like((await data(app, FINALIZE, { id: boxes[0], doc })).finalizeBillingBox, { state: 'FINALIZED', invoiceCode: doc.invoiceCode });
  t.like(await failure(FINALIZE, { id: boxes[1], doc }), { code: 'duplicate', param: '$.document.invoiceCode' });
  t.is((await rest(`/billing-box/${boxes[1]}`)).state, 'approved', 'nothing changed');
});

test('a readonly credential cannot call them', async (t) => {
  const readonly = await app.credential({ role: 'readonly', adminIds: [adminId] });
  const r = await graphql(app, SET_RATE, { a: adminId, c: 'USD', d: '2026-11-02', r: '1' }, readonly);
  t.is(r.status, 403);
});
