// A CPO month over HTTP: an EVSE owner's reimbursements for October's sessions at its EVSE, and a
// host's hosting fees for two EVSEs (one linked from the 15th), reach finalized documents: the
// reimbursements as a self-billing invoice (expenses, negative in the API, positive in the
// document, UBL type 389), the fees as an invoice; both valid against the EN 16931 rules.
import test from 'ava';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxInState, configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { cpoSessionBody, createEvse, createLocatedEvse, createReimbursementPlan, reimburseEvse } from '../../helpers/cpo-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { ensureVatRate, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

async function settled(id: string) {
  for (let i = 0; i < 400; i++) {
    const session = await ok('GET', `/cpo-charge-session/${id}`);
    if (session.status !== 'received') return session;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session ${id} not processed`);
}

const OCTOBER = '2026-09-30T22:00:00.000Z';

test('October: reimbursements and hosting fees reach finalized documents with the right signs and totals', async (t) => {
  const admin = (await createAdministration(app, { localeId: 'en-GB' })).id;
  await configureBilling(app, admin);
  const selfBilling = await createSeries(app, admin, { primary_document_type: 'self_billing_invoice', item_sources: ['cpo_reimbursement'] });
  const invoices = await createSeries(app, admin, { item_sources: ['cpo_subscription_fee'] });

  // The owner of EVSE A is reimbursed 0.20 per kWh (plan input) plus VAT.
  const owner = await createCustomer(app, admin, { name: 'Owner', reimbursement_vat: 'Applies', custom_fields: { vat_number: 'NL000099998B57' } });
  const evseA = await createLocatedEvse(app, admin);
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.20' });
  await reimburseEvse(app, admin, owner.id, plan.id, evseA.evse_uid);

  // The host pays 31.00 a month per linked EVSE: B for all of October, C from the 15th (17 of 31 days).
  const host = await createCustomer(app, admin, { name: 'Host' });
  const hosting = await ok('POST', '/cpo-subscription-plan', { admin_id: admin, name: 'Hosting' });
  await ok('POST', `/cpo-subscription-plan/${hosting.id}/2026-10-01`, { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '31.00', period: 'month', per: 'evse' }] });
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: hosting.id, valid_from: '2026-10-01T00:00:00+02:00' });
  const [evseB, evseC] = [await createEvse(app, admin), await createEvse(app, admin)];
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evseB.evse_uid });
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evseC.evse_uid, valid_from: '2026-10-15T00:00:00+02:00' });
  await startCurrentPeriods(scopedEm(app.orm), new Date('2026-10-20T12:00:00Z'));

  const sessions = [];
  for (const [day, kwh] of [['05', '10'], ['12', '20'], ['28', '5.5']]) {
    const stored = await submitSession(app, cpoSessionBody(evseA.evse_uid, {
      start_date_time: `2026-10-${day}T18:00:00+02:00`, end_date_time: `2026-10-${day}T19:00:00+02:00`, total_energy_kwh: kwh,
    }), '/main/v1/cpo-charge-session');
    sessions.push(await settled(stored.id));
  }
  t.deepEqual(sessions.map((s) => [s.status, s.total_reimbursement_amount_excl_vat]), [['processed', '2.00'], ['processed', '4.00'], ['processed', '1.10']]);

  const boxes = (await ok('GET', `/billing-box?page_size=100`)).items.filter((b: any) => b.admin_id === admin && b.period_from === OCTOBER);
  const expenses = boxes.find((b: any) => b.billing_series_id === selfBilling.id);
  const fees = boxes.find((b: any) => b.billing_series_id === invoices.id);
  t.like(expenses, { party_id: owner.id, negate_document_amounts: true, total_amount_excl_vat: '-7.10', total_vat_amount: '-1.49', total_amount_incl_vat: '-8.59' });
  t.like(fees, { party_id: host.id, negate_document_amounts: false, total_amount_excl_vat: '48.00', total_vat_amount: '10.08', total_amount_incl_vat: '58.08' });
  const listed = (await ok('GET', `/billing-box/${expenses.id}/cpo-charge-session-reimbursement`)).items;
  t.deepEqual(listed.map((i: any) => [i.cpo_charge_session_id, i.amount_excl_vat]).sort(),
    sessions.map((s, i) => [s.id, ['-2.00', '-4.00', '-1.10'][i]]).sort());

  // Close both October review-sets, approve, and finalize both boxes.
  for (const box of [expenses, fees]) {
    await reviewSetDone(app, box.billing_reviewset_id, 'close');
    await reviewSetDone(app, box.billing_reviewset_id, 'approve', { payment_method: 'bank_transfer' });
    await boxInState(app, box.id, 'ready');
    const final = await ok('POST', `/billing-box/${box.id}/finalize`);
    t.is(final.state, 'finalized');
    t.regex(final.invoice_code, new RegExp(`^${box.id === expenses.id ? selfBilling.code : invoices.code}-2026-000001$`));
  }

  const expenseXml = (await app.request('GET', `/main/v1/billing-box/${expenses.id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(expenseXml, /<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/);
  t.regex(expenseXml, /<cbc:TaxExclusiveAmount currencyID="EUR">7.10<\/cbc:TaxExclusiveAmount>/);
  t.regex(expenseXml, /<cbc:PayableAmount currencyID="EUR">8.59<\/cbc:PayableAmount>/);
  t.notRegex(expenseXml, /currencyID="EUR">-/);
  t.deepEqual(await en16931Failures(expenseXml), []);
  const expensePdf = (await pdfPages((await app.request('GET', `/main/v1/billing-box/${expenses.id}/document`)).body)).join('\n');
  for (const s of ['Self-billing invoice', 'Owner', '7.10 EUR', '1.49 EUR', '8.59 EUR']) t.true(expensePdf.includes(s), `${s} in\n${expensePdf}`);

  const feeXml = (await app.request('GET', `/main/v1/billing-box/${fees.id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(feeXml, /<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>/);
  t.regex(feeXml, /<cbc:PayableAmount currencyID="EUR">58.08<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(feeXml), []);
  const feePdf = (await pdfPages((await app.request('GET', `/main/v1/billing-box/${fees.id}/document`)).body)).join('\n');
  for (const s of ['Host', '48.00 EUR', '10.08 EUR', '58.08 EUR']) t.true(feePdf.includes(s), `${s} in\n${feePdf}`);
});
