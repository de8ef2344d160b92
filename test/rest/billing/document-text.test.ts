// What users' texts and large amounts do to a finalized document. Found by probing (2026-11-28): a
// name or description of many lines ran the PDF past its pages (pdfkit went on on pages of its own:
// the payment reference was drawn on another page than its label, text over the footers); a line
// break in a one-line cell (the account name of "Pay to", an annex row) printed over the next rows; a
// tab printed as a missing glyph; U+FFFE and U+FFFF went into the UBL as they were (not XML 1.0:
// a strict parser refuses the document; SaxonJS does not notice); a line of 10^14 or more failed
// finalize (500) and one of 17 digits and more was printed cut ("99,999,899,990,0…").
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries, finalizedCustomItemBox, type CustomItemBoxOptions } from '../../helpers/billing-factories.ts';
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

async function finalized(options: Pick<CustomItemBoxOptions, 'customer' | 'seller' | 'items' | 'address' | 'reference'>) {
  const { final, boxId } = await finalizedCustomItemBox(app, options);
  if (final.status !== 200) return { final, pages: [] as string[], xml: '' };
  const pdf = await app.request('GET', `/main/v1/billing-box/${boxId}/document`);
  const xml = await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } });
  return { final, pages: await pdfPages(pdf.body), xml: xml.body as string };
}

const pageOf = (pages: string[], s: string) => pages.findIndex((p) => p.includes(s));

test('a name and a description of hundreds of lines stay on the pages the layout counts: the payment reference beside its label, each amount beside its line', async (t) => {
  const { final, pages } = await finalized({ customer: { name: 'N\n'.repeat(127) }, items: [{ description: 'D\n'.repeat(499) }] });
  t.is(final.status, 200, JSON.stringify(final.body));
  const label = pageOf(pages, 'Payment reference:');
  t.regex(pages[label], /RF\d\d /, 'the reference on the page of its label');
  t.is(pageOf(pages, 'Total incl. VAT'), label);
  t.is(pageOf(pages, 'S 21.00% 10.00'), pageOf(pages, '1 D'));
  pages.forEach((page, i) => t.true(page.includes(`Page ${i + 1} of ${pages.length}`)));
});

test('tabs and line breaks in one-line cells print as spaces', async (t) => {
  const { final, pages } = await finalized({
    customer: { name: 'Fleet\tCo' }, seller: { bic: null, bank_account_name: 'Charge\nCo\r\nB.V.' }, items: [{ description: 'Tab\there' }],
  });
  t.is(final.status, 200, JSON.stringify(final.body));
  const text = pages.join('\n');
  t.false(text.includes('\u0000'), 'no missing glyph');
  for (const s of ['Fleet Co', 'Tab here', 'Pay to: NL91 ABNA 0417 1643 00, Charge Co B.V.']) t.true(text.includes(s), `${s} in\n${text}`);
});

test('U+FFFE and U+FFFF in a name or description: the UBL is XML 1.0, valid EN 16931; the PDF prints them, and C1 controls, without a missing glyph', async (t) => {
  const { final, xml, pages } = await finalized({ customer: { name: 'Non\uFFFEchar\uFFFF GmbH' }, items: [{ description: 'Item \uFFFF C1\u0085\u0080\u009F end' }] });
  t.is(final.status, 200, JSON.stringify(final.body));
  const text = pages.join('\n');
  t.false(text.includes('\u0000'), `no missing glyph: ${JSON.stringify(text.split('\n').filter((l) => l.includes('\u0000')))}`);
  t.regex(text, /Item \uFFFD C1 +end/, 'C1 controls print as spaces, on one line');
  t.false(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml));
  t.true(xml.includes('<cbc:Name>Non\uFFFDchar\uFFFD GmbH</cbc:Name>'));
  t.deepEqual(await en16931Failures(xml), []);
});

// Found by probing (2026-11-29): xmlbuilder2 leaves an `&` that looks like a reference unescaped.
test('text that looks like an XML reference is text: the UBL parses, valid EN 16931, and says what the PDF says', async (t) => {
  const name = 'Smith &Co; R&amp;D &#0; &nbsp;';
  const { final, xml, pages } = await finalized({
    customer: { name }, address: { address_line1: 'Main st &x;', city: 'Utrecht', postal_code: '1234 AB' }, reference: 'PO &ref;',
    items: [{ description: 'A &lt; B &#x26; C' }],
  });
  t.is(final.status, 200, JSON.stringify(final.body));
  t.deepEqual(await en16931Failures(xml), []);
  for (const element of ['<cbc:Name>Smith &amp;Co; R&amp;amp;D &amp;#0; &amp;nbsp;</cbc:Name>', '<cbc:StreetName>Main st &amp;x;</cbc:StreetName>',
    '<cbc:BuyerReference>PO &amp;ref;</cbc:BuyerReference>', '<cbc:Name>A &amp;lt; B &amp;#x26; C</cbc:Name>']) {
    t.true(xml.includes(element), element);
  }
  const text = pages.join('\n');
  for (const printed of [name, 'Main st &x;', 'A &lt; B &#x26; C']) t.true(text.includes(printed), `${printed} in\n${text}`);
});

// Found by probing (2026-11-29): each was accepted, and finalized an invoice failing EN 16931.
test('a seller member of white space only, or a VAT number without its country code, is refused at its member', async (t) => {
  const admin = await createAdministration(app);
  for (const [seller, param] of [
    [{ vat_number: '123456789B01' }, '$.seller.vat_number'], [{ vat_number: '   ' }, '$.seller.vat_number'], [{ vat_number: 'XX123' }, '$.seller.vat_number'],
    [{ name: '   ' }, '$.seller.name'], [{ name: '' }, '$.seller.name'], [{ iban: '  ' }, '$.seller.iban'],
  ] as const) {
    const r = await app.request('POST', `/main/v1/administration/${admin.id}/billing-settings`, { body: { seller } });
    t.is(r.status, 400, JSON.stringify(seller));
    t.like(r.body, { code: 'invalid_input', param }, JSON.stringify(seller));
  }
  t.is((await app.request('POST', `/main/v1/administration/${admin.id}/billing-settings`, { body: { seller: { vat_number: 'EL123456789' } } })).status, 200, 'Greece\'s EL');
});

test('a customer\'s VAT number without its country code: finalize is refused and takes no number; one of white space only is none', async (t) => {
  const refused = await finalizedCustomItemBox(app, { customer: { custom_fields: { vat_number: '123456789' } }, items: [{}] });
  t.is(refused.final.status, 400);
  t.like(refused.final.body, { code: 'invalid_input' });
  t.regex(refused.final.body.message, /custom_fields\.vat_number/);
  t.like(await okCall(app, 'GET', `/billing-box/${refused.boxId}`), { state: 'ready', invoice_code: null });
  const { final, xml } = await finalized({ customer: { custom_fields: { vat_number: '  ' } }, items: [{}] });
  t.is(final.status, 200, JSON.stringify(final.body));
  t.deepEqual(await en16931Failures(xml), []);
});

test('a line of 10^14 and more is finalized, and its amount printed in full', async (t) => {
  const { final, pages, xml } = await finalized({ items: [{ quantity: '999999', unit_price_excl_vat: '99999999.99' }, { quantity: '1000000', unit_price_excl_vat: '100000000' }] });
  t.is(final.status, 200, JSON.stringify(final.body));
  t.is(final.body.total_amount_excl_vat, '199999899990000.01');
  const rows = pages.flatMap((p) => p.split('\n'));
  t.true(rows.some((r) => r.startsWith('1 ') && r.endsWith(' 199,999,899,990,000.01')), rows.join('\n'));
  t.true(rows.includes('Total incl. VAT 241,999,878,987,900.01 EUR'), rows.join('\n'));
  t.deepEqual(await en16931Failures(xml), []);
});

test('a custom item whose amount or VAT the item cannot keep is 400 at quantity, and bills nothing', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = (fields: Record<string, unknown>) => app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', ...fields,
    },
  });
  // 5 × 10^14 at 21 %: VAT 1.05 × 10^14; 10^14 × 10^14 exempt: an amount of 10^28.
  for (const fields of [{ quantity: '1000000', unit_price_excl_vat: '500000000' }, { quantity: '-1000000', unit_price_excl_vat: '500000000' },
    { quantity: '99999999999999', unit_price_excl_vat: '99999999999999', vat_kind: 'exempt' }]) {
    const r = await item(fields);
    t.is(r.status, 400, JSON.stringify(r.body));
    t.is(r.body.param, '$.quantity');
  }
  t.deepEqual((await okCall(app, 'GET', `/billing-box?party_external_reference=${customer.external_reference}`)).items, []);
  t.is((await item({ quantity: '1000000', unit_price_excl_vat: '400000000' })).status, 200, 'VAT 8.4 × 10^13 fits');
});
