// Invoices a finance team would send, read back from their PDFs (pdf-parse) and UBLs: one month per
// language (en, nl, de, fr) with sessions, a subscription fee and a custom item; a credit note; a
// self-billing invoice. The lines name what they bill in the document's language, the annex rows
// are the items, each annex subtotal is its line, the payment reference is a valid ISO 11649
// reference equal to the UBL's BT-83, no English label is on a nl/de/fr document, "page n of m" is
// on every page, and every UBL passes the EN 16931 rules.
import test from 'ava';
import { isCreditorReference } from '../../../src/billing/document/creditor-reference.ts';
import { fill, formatAmount, formatDate, formatDateTime, LABELS, type DocumentLanguage } from '../../../src/billing/document/document-labels.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxInState, configureBilling, createSeries, reviewSetDone, SELLER } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { englishLabelsIn, localStart, paymentReferenceIn, readInvoice, textLines } from '../../helpers/invoice-reading.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const CONTACT = { ...SELLER, phone: '+31 30 123 4567', website: 'www.charge.example' };

/** A month of one customer in `language`: three sessions, a monthly fee, a custom item; finalized. */
async function monthInvoice(language: DocumentLanguage, method: 'bank_transfer' | 'direct_debit') {
  const admin = await createAdministration(app, { localeId: `${language}-XX`.replace('en-XX', 'en-GB') });
  await configureBilling(app, admin.id, { seller: CONTACT });
  const series = await createSeries(app, admin.id);
  const sub = await pricedSubscription(app, admin.id, {
    plan: { name: 'Flex 24', recurring_costs: [{ description: 'Kartengebühr', amount_excl_vat: '3.10', period: 'month' }] },
  });
  const customer = await ok('POST', `/customer/${sub.customerId}`, {
    external_reference: `C-${language}-${admin.id.slice(-6)}`, custom_fields: { vat_number: 'NL000099998B57' },
  });
  if (method === 'direct_debit') {
    await ok('POST', '/billing-direct-debit-mandate', {
      customer_id: sub.customerId, bank_account_name: 'Fleet', iban: 'DE89370400440532013000', mandate_reference: 'MNDT-77', valid_from: '2026-01-01T00:00:00Z',
    });
  }
  const sessions = [
    sessionBody(sub.evcoId, { start_date_time: '2026-10-03T08:15:00+02:00', end_date_time: '2026-10-03T09:50:00+02:00', total_energy_kwh: '18.432' }),
    sessionBody(sub.evcoId, { start_date_time: '2026-10-12T17:00:00+02:00', end_date_time: '2026-10-12T21:00:00+02:00', total_energy_kwh: '31.2',
      address: { street: 'Piotrkowska 1', city: 'Łódź', country: 'NL' }, evse_id: 'NL*ABC*E7' }),
    sessionBody(sub.evcoId, { start_date_time: '2026-10-28T12:00:00+01:00', end_date_time: '2026-10-28T12:35:00+01:00', total_energy_kwh: '27.5' }),
  ];
  for (const body of sessions) t_is((await processed(app, (await submitSession(app, body)).id)).status, 'priced');
  await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-10-15', party_id: sub.customerId, admin_id: admin.id, description: 'Wallbox-Prüfung',
    quantity: '2', unit: 'x', unit_price_excl_vat: '49.00', vat_kind: 'standard',
  });
  const set = (await ok('GET', '/billing-review-set')).items.find((s: any) => s.billing_series_id === series.id && s.period_from === '2026-09-30T22:00:00.000Z');
  await reviewSetDone(app, set.id, 'close');
  await reviewSetDone(app, set.id, 'approve', { payment_method: method, billing_reference: 'PO-4711' });
  const box = (await ok('GET', `/billing-box?reviewset_id=${set.id}`)).items[0];
  await boxInState(app, box.id, 'ready');
  const final = await ok('POST', `/billing-box/${box.id}/finalize`);
  return { admin, customer, final, ...(await readInvoice(app, box.id)) };
}

function t_is(actual: unknown, expected: unknown) {
  if (actual !== expected) throw new Error(`${String(actual)} is not ${String(expected)}`);
}

/** A box of one custom item, closed, approved and finalized; its documents read back. */
async function finalizedItem(body: Record<string, unknown>) {
  // Its own VAT rate: the tests run at once, and the month invoices' rate may not exist yet.
  await ensureVatRate(app);
  const item = await ok('POST', '/billing-custom-item', { quantity: '-1', unit: 'x', vat_kind: 'standard', date: '2026-11-02', ...body });
  await ok('POST', `/billing-box/${item.box_id}/close`);
  await ok('POST', `/billing-box/${item.box_id}/approve`);
  await boxInState(app, item.box_id, 'ready');
  const final = await ok('POST', `/billing-box/${item.box_id}/finalize`);
  return { final, ...(await readInvoice(app, item.box_id)) };
}

const METHODS: Record<DocumentLanguage, 'bank_transfer' | 'direct_debit'> = { en: 'bank_transfer', nl: 'bank_transfer', de: 'direct_debit', fr: 'bank_transfer' };

for (const language of ['en', 'nl', 'de', 'fr'] as const) {
  test(`an invoice in ${language}: lines named, annex rows and subtotals equal to the items, payment reference, page n of m, EN 16931`, async (t) => {
    const labels = LABELS[language];
    const method = METHODS[language];
    const { final, customer, pages, text, xml, sessionItems } = await monthInvoice(language, method);
    const amount = (a: string) => formatAmount(a, language);

    // The lines, by what they bill.
    const charging = final.rollups.findIndex((r: any) => r.product_category === 'charging');
    const chargingName = `${labels.categories.charging} (${fill(labels.lines.sessions, { n: 3 })}, ${amount('77.132')} kWh)`;
    const feeName = `Kartengebühr – Flex 24, ${fill(labels.lines.fromTo, { from: formatDate('2026-10-01', language), to: formatDate('2026-10-31', language) })}`;
    const customName = `Wallbox-Prüfung (2 × ${amount('49.00')})`;
    for (const name of [chargingName, feeName, customName]) t.true(text.includes(name), `${name} in\n${text}`);
    for (const name of [chargingName, feeName, customName]) t.true(xml.includes(`<cbc:Name>${name}</cbc:Name>`), `${name} in the UBL`);
    t.false(/Other items|Subscription fees|\(\d+ items?\)/.test(text), 'no generic line');

    // The annex: one row per session item, as the item says; the subtotal is the line.
    t.is(sessionItems.length, 3);
    const lines = textLines(pages);
    for (const item of sessionItems) {
      const start = formatDateTime(localStart(item.occurred_at, 'Europe/Amsterdam'), language);
      const row = lines.find((l) => l.startsWith(start));
      t.truthy(row, `a row starting ${start}`);
      t.true(row!.endsWith(` ${amount(item.amount_excl_vat)}`), `${row} ends with ${item.amount_excl_vat}`);
    }
    t.true(lines.some((l) => l.includes('Piotrkowska 1, Łódź · NL*ABC*E7')), 'location and EVSE of a session');
    t.true(lines.some((l) => l.includes(' 1:35 ')), 'a duration');
    const line = final.rollups[charging];
    t.true(text.includes(`${labels.annex.subtotal} ${charging + 1} ${amount(line.subtotal_excl_vat)}`), `subtotal of line ${charging + 1}`);
    t.is(sessionItems.reduce((acc: bigint, i: any) => acc + BigInt(i.amount_excl_vat.replace('.', '')), 0n), BigInt(line.subtotal_excl_vat.replace('.', '')));

    // Payment: the method in words, the reference valid and the UBL's BT-83; the buyer's reference and numbers.
    t.true(text.includes(labels.payment.methods[method]));
    const reference = paymentReferenceIn(text);
    t.true(isCreditorReference(reference), reference);
    t.is(reference.slice(4), final.invoice_code.replace(/[^A-Z0-9]/g, ''));
    t.regex(xml, new RegExp(`<cbc:PaymentID>${reference}</cbc:PaymentID>`));
    if (method === 'bank_transfer') t.true(text.includes('NL91 ABNA 0417 1643 00'));
    else {
      t.true(text.includes('MNDT-77') && text.includes('DE89 3704 0044 0532 0130 00'), text);
      t.regex(xml, /<cac:PaymentMandate>\s*<cbc:ID>MNDT-77<\/cbc:ID>\s*<cac:PayerFinancialAccount>\s*<cbc:ID>DE89370400440532013000<\/cbc:ID>/);
    }
    t.true(text.includes(`${labels.reference}: PO-4711`));
    t.regex(xml, /<cbc:BuyerReference>PO-4711<\/cbc:BuyerReference>/);
    t.true(text.includes(`${labels.customerNumber}: ${customer.external_reference}`));
    t.regex(xml, new RegExp(`<cac:AccountingCustomerParty>\\s*<cac:Party>\\s*<cac:PartyIdentification>\\s*<cbc:ID>${customer.external_reference}</cbc:ID>`));
    t.regex(xml, /<cac:AccountingCustomerParty>[\s\S]*<cac:PartyTaxScheme>\s*<cbc:CompanyID>NL000099998B57<\/cbc:CompanyID>/);
    for (const contact of [CONTACT.email, CONTACT.phone, CONTACT.website]) t.true(text.includes(contact), contact);
    t.regex(xml, /<cac:AdditionalDocumentReference>\s*<cbc:ID>[^<]+-sessions<\/cbc:ID>[\s\S]*mimeCode="text\/csv"/);

    // Layout: page n of m on every page, the language throughout.
    pages.forEach((page, i) => t.true(page.includes(fill(labels.page, { n: i + 1, m: pages.length })), `page ${i + 1}`));
    if (language !== 'en') t.deepEqual(englishLabelsIn(text, language), []);
    t.deepEqual(await en16931Failures(xml), []);
  });
}

test('a credit note: its own title, the amount refunded or offset, the payment reference as BT-83, EN 16931', async (t) => {
  const admin = await createAdministration(app, { localeId: 'nl-NL' });
  await configureBilling(app, admin.id, { seller: CONTACT });
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, { external_reference: `CN-${admin.id.slice(-6)}` });
  const { final, text, pages, xml } = await finalizedItem({
    time_zone: 'Europe/Amsterdam', party_id: customer.id, admin_id: admin.id, description: 'Tegoed laadpas', quantity: '-2', unit_price_excl_vat: '12.50',
  });
  t.is(final.document_kind, 'credit_note');
  for (const s of ['Creditnota', 'Tegoed laadpas (2 × 12,50)', '30,25 EUR', LABELS.nl.payment.creditNote]) t.true(text.includes(s), `${s} in\n${text}`);
  t.false(text.includes(LABELS.nl.reference), 'no billing reference: no "Uw referentie"');
  t.notRegex(xml, /BuyerReference/);
  const reference = paymentReferenceIn(text);
  t.true(isCreditorReference(reference));
  t.regex(xml, new RegExp(`<cbc:PaymentID>${reference}</cbc:PaymentID>`));
  pages.forEach((page, i) => t.true(page.includes(`Pagina ${i + 1} van ${pages.length}`)));
  t.deepEqual(englishLabelsIn(text, 'nl'), []);
  t.deepEqual(await en16931Failures(xml), []);
});

test('a self-billing invoice: its own title and mention, the issuer pays, the payment reference as BT-83, EN 16931', async (t) => {
  const admin = await createAdministration(app, { localeId: 'de-DE' });
  await configureBilling(app, admin.id, { seller: CONTACT });
  await createSeries(app, admin.id, { primary_document_type: 'self_billing_invoice', item_sources: ['custom'] });
  const owner = await createCustomer(app, admin.id, { name: 'Ørsted Müller GmbH', custom_fields: { vat_number: 'DE123456789' } });
  const { final, text, xml } = await finalizedItem({
    time_zone: 'Europe/Berlin', party_id: owner.id, admin_id: admin.id, description: 'Erstattung Wallbox', quantity: '-3', unit_price_excl_vat: '4.00',
  });
  t.is(final.document_kind, 'self_billing_invoice');
  for (const s of [LABELS.de.titles.self_billing_invoice, LABELS.de.selfBilling.note, 'Ørsted Müller GmbH', 'Erstattung Wallbox (3 × 4,00)', LABELS.de.payment.selfBillingNote]) {
    t.true(text.includes(s), `${s} in\n${text}`);
  }
  const reference = paymentReferenceIn(text);
  t.true(isCreditorReference(reference));
  t.regex(xml, new RegExp(`<cbc:PaymentID>${reference}</cbc:PaymentID>`));
  t.deepEqual(englishLabelsIn(text, 'de'), []);
  t.deepEqual(await en16931Failures(xml), []);
});

// Found by probing (2026-11-29): payment method "other" was written as a SEPA credit transfer (58)
// to the seller's account, while the PDF says "Other payment method" and names none.
test('a box paid by another method: the UBL says ZZZ and names no account, as the PDF', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id, { seller: CONTACT, payment_methods: ['bank_transfer', 'other'] });
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, { custom_fields: { vat_number: 'NL000099998B57' } });
  await ensureVatRate(app);
  const item = await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1', unit: 'x',
    unit_price_excl_vat: '10.00', vat_kind: 'standard',
  });
  await ok('POST', `/billing-box/${item.box_id}/close`);
  await ok('POST', `/billing-box/${item.box_id}/approve`, { payment_method: 'other' });
  await boxInState(app, item.box_id, 'ready');
  await ok('POST', `/billing-box/${item.box_id}/finalize`);
  const { text, xml } = await readInvoice(app, item.box_id);
  t.true(text.includes(LABELS.en.payment.methods.other), text);
  t.regex(xml, /<cbc:PaymentMeansCode>ZZZ<\/cbc:PaymentMeansCode>/);
  t.notRegex(xml, /PayeeFinancialAccount/);
  t.deepEqual(await en16931Failures(xml), []);
});

// Found by probing (2026-11-29): the mandate was looked up at the start of the issue day, so a mandate
// that replaced another that day left the invoice naming the old account, and one signed that day none.
test('a direct debit invoice names the mandate in force when it is issued: one replacing another today, or the first signed today', async (t) => {
  await ensureVatRate(app);
  const today = new Date().toISOString().slice(0, 10);
  for (const replacing of [true, false]) {
    const admin = await createAdministration(app, { localeId: 'en-GB' });
    await configureBilling(app, admin.id);
    await createSeries(app, admin.id);
    const customer = await createCustomer(app, admin.id);
    if (replacing) {
      await ok('POST', '/billing-direct-debit-mandate', {
        customer_id: customer.id, bank_account_name: 'Old', iban: 'DE89370400440532013000', mandate_reference: `OLD-${admin.id}`, valid_from: '2026-01-01T00:00:00Z',
      });
    }
    await ok('POST', '/billing-direct-debit-mandate', {
      customer_id: customer.id, bank_account_name: 'New', iban: 'NL91ABNA0417164300', mandate_reference: `NEW-${admin.id}`, invalidate_overlapping_mandate: true,
    });
    const item = await ok('POST', '/billing-custom-item', {
      time_zone: 'UTC', date: today, party_id: customer.id, admin_id: admin.id, description: 'Thing', quantity: '1', unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
    });
    await ok('POST', `/billing-box/${item.box_id}/close`);
    await ok('POST', `/billing-box/${item.box_id}/approve`, { payment_method: 'direct_debit' });
    await boxInState(app, item.box_id, 'ready');
    await ok('POST', `/billing-box/${item.box_id}/finalize`);
    const xml = (await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } })).body as string;
    const mandate = /<cac:PaymentMandate>[\s\S]*?<\/cac:PaymentMandate>/.exec(xml)?.[0] ?? '';
    t.regex(mandate, new RegExp(`NEW-${admin.id}[\\s\\S]*NL91ABNA0417164300`), `replacing: ${replacing}`);
    t.false(xml.includes('OLD-'));
    t.deepEqual(await en16931Failures(xml), []);
  }
});
