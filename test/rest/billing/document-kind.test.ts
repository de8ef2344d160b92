// Which document a finalized box is and the sign its amounts show: by the series' document type
// and the box's total, at finalize. Found by probing: a credit-note series issued a box the
// customer owes as a CreditNote (a credit of 12.10 to the customer), the same document as a box of
// credits; and a box kept `negate_document_amounts` from its creation while its document type came
// from the series at finalize, so after the series' type changed two boxes of one total showed
// opposite signs.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

async function customItem(adminId: string, quantity: string, seriesCode?: string) {
  const customer = await createCustomer(app, adminId, { company_reg_num: '555', custom_fields: { vat_number: 'NL000099998B57' } });
  return okCall(app, 'POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: adminId, description: 'Service', quantity,
    unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', ...(seriesCode ? { series_indicator_code: seriesCode } : {}),
  });
}

async function finalized(boxId: string) {
  await okCall(app, 'POST', `/billing-box/${boxId}/close`);
  await okCall(app, 'POST', `/billing-box/${boxId}/approve`);
  await boxInState(app, boxId, 'ready');
  const box = await okCall(app, 'POST', `/billing-box/${boxId}/finalize`);
  const xml = (await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } })).body as string;
  return {
    box, xml,
    root: /<(Invoice|CreditNote)\s/.exec(xml)?.[1],
    typeCode: /<cbc:(?:Invoice|CreditNote)TypeCode>(\d+)</.exec(xml)?.[1],
    payable: /<cbc:PayableAmount[^>]*>([^<]+)</.exec(xml)?.[1],
  };
}

test('a credit-note series: a box the customer owes is an invoice, a box of credits a credit note, each valid', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id, { code: 'CN', primary_document_type: 'credit_note' });
  const owed = await finalized((await customItem(admin.id, '1')).box_id);
  const credited = await finalized((await customItem(admin.id, '-1')).box_id);
  t.is(owed.box.total_amount_incl_vat, '12.10');
  t.is(owed.box.document_kind, 'invoice');
  t.deepEqual([owed.root, owed.typeCode, owed.payable], ['Invoice', '380', '12.10']);
  t.is(credited.box.total_amount_incl_vat, '-12.10');
  t.is(credited.box.document_kind, 'credit_note');
  t.deepEqual([credited.root, credited.typeCode, credited.payable], ['CreditNote', '381', '12.10']);
  t.deepEqual(await en16931Failures(owed.xml), []);
  t.deepEqual(await en16931Failures(credited.xml), []);
  t.is(owed.box.invoice_code, 'CN-2026-000001', 'one number sequence');
  t.is(credited.box.invoice_code, 'CN-2026-000002');
});

test('a series whose document type changes: its boxes made before show the new sign too, and keep it once finalized', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id, { code: 'SB' });
  const before = await customItem(admin.id, '-1');
  t.false((await okCall(app, 'GET', `/billing-box/${before.box_id}`)).negate_document_amounts);
  await okCall(app, 'POST', `/billing-series/${series.id}`, { primary_document_type: 'self_billing_invoice' });
  const after = await customItem(admin.id, '-1');
  t.true((await okCall(app, 'GET', `/billing-box/${before.box_id}`)).negate_document_amounts, 'as the series says now');
  const documents = [await finalized(before.box_id), await finalized(after.box_id)];
  for (const document of documents) {
    t.is(document.box.document_kind, 'self_billing_invoice');
    t.true(document.box.negate_document_amounts);
    t.deepEqual([document.root, document.typeCode, document.payable], ['Invoice', '389', '12.10']);
  }
  await okCall(app, 'POST', `/billing-series/${series.id}`, { primary_document_type: 'invoice' });
  t.true((await okCall(app, 'GET', `/billing-box/${before.box_id}`)).negate_document_amounts, 'a finalized box keeps what its documents show');
});

// Found by probing: a self-billing box whose reversals exceed what the administration owes (the
// owner owes the administration) was issued as a self-billing invoice (389) with negative amounts,
// "Total incl. VAT -12.10" and "We will transfer the total to you". It is now a self-billed credit
// note (UNTDID 1001 code 261) with positive amounts, which the owner pays to the administration.
test('a self-billing series: a box the owner owes is a self-billed credit note (261) with positive amounts, paid by the owner', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id, { code: 'SBC', primary_document_type: 'self_billing_invoice' });
  const owed = await finalized((await customItem(admin.id, '1')).box_id);
  const paid = await finalized((await customItem(admin.id, '-1')).box_id);
  t.is(owed.box.total_amount_incl_vat, '12.10');
  t.is(owed.box.document_kind, 'self_billing_credit_note');
  t.deepEqual([owed.root, owed.typeCode, owed.payable], ['CreditNote', '261', '12.10']);
  t.notRegex(owed.xml, /Amount currencyID="EUR">-/, 'no negative amount');
  t.regex(owed.xml, /<cac:PayeeFinancialAccount>\s*<cbc:ID>NL91ABNA0417164300<\/cbc:ID>/, 'paid into the administration\'s account');
  t.deepEqual(await en16931Failures(owed.xml), []);
  const pdf = (await pdfPages((await app.request('GET', `/main/v1/billing-box/${owed.box.id}/document`)).body)).join('\n');
  t.true(pdf.includes('Self-billed credit note'), pdf);
  t.true(pdf.includes('12.10 EUR'));
  t.false(pdf.includes('-12.10'));
  t.false(pdf.includes('We will transfer the total to you'));
  t.regex(pdf.replace(/\s+/g, ' '), /please transfer the total to us by the due date/, 'the owner pays');
  t.deepEqual([paid.box.document_kind, paid.root, paid.typeCode, paid.payable], ['self_billing_invoice', 'Invoice', '389', '12.10'], 'one sequence, as before');
  t.is(owed.box.invoice_code, 'SBC-2026-000001');
  t.is(paid.box.invoice_code, 'SBC-2026-000002');
});
