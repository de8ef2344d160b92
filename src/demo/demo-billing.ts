// The demo's billing: nl-main has a series, last month is closed out (finalized boxes with their
// PDF and UBL), and this month has an open box that fills as sessions are priced.
import { billSubscriptionFees } from '../billing/sources/subscription-fee.source.ts';
import { billCustomItem } from '../billing/sources/custom-item.source.ts';
import { saveBillingSettings } from '../billing/billing-settings.service.ts';
import { createSeries } from '../billing/billing-series.service.ts';
import { boxList } from '../billing/billing-box.queries.ts';
import { approveReviewSet, closeReviewSet } from '../billing/review-set.service.ts';
import { reviewSetList } from '../billing/review-set.queries.ts';
import { renderDraft } from '../billing/render-draft.service.ts';
import { finalizeBox } from '../billing/finalize-box.service.ts';
import { periodOf } from '../billing/periods.ts';
import { localTime } from '../pricing/local-time.ts';
import type { Em } from '../platform/orm.ts';

const ZONE = 'Europe/Amsterdam';

export async function seedDemoBilling(em: Em, now = new Date()): Promise<void> {
  await saveBillingSettings(em, 'nl-main', {
    timeZone: ZONE, invoicingPeriod: 'month', paymentMethods: ['bank_transfer', 'direct_debit'], defaultPaymentMethod: 'bank_transfer', paymentTermDays: 14,
    seller: {
      name: 'Voltera Mobility B.V.', street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL', vat_number: 'NL858123456B01',
      company_reg_num: '71234567', email: 'billing@voltera.example', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', bank_account_name: 'Voltera Mobility B.V.',
    },
  });
  const series = await createSeries(em, { adminId: 'nl-main', code: 'VOL', name: 'Voltera NL invoices', externalReference: 'SERIES-NL-INVOICES' });
  const current = periodOf(now, ZONE, 'month');
  const last = periodOf(new Date(current.from.getTime() - 1), ZONE, 'month');
  const day = (period: typeof last, n: number) => `${localTime(period.from, ZONE).date.slice(0, 8)}${String(n).padStart(2, '0')}`;
  const item = (customer: string, date: string, description: string, quantity: string, price: string, reference: string) => billCustomItem(em, {
    timeZone: ZONE, date, partyExternalReference: customer, adminId: 'nl-main', description, quantity, unit: 'pcs', unitPriceExclVat: price,
    vatKind: 'standard', productCategory: 'custom',
  }, reference);
  await item('CUST-1001', day(last, 5), 'Replacement charge card', '1', '7.50', 'DEMO-CARD-1001');
  await item('CUST-1002', day(last, 12), 'Wallbox installation check', '2', '49.00', 'DEMO-CHECK-1002');
  await item('CUST-1002', day(current, 1), 'Fleet reporting (monthly)', '1', '25.00', 'DEMO-REPORT-1002');
  await em.transactional((tx) => billSubscriptionFees(tx, { adminId: 'nl-main', country: 'NL', currency: 'EUR', timeZone: ZONE, kind: 'month', period: last }));

  const [lastSet] = (await reviewSetList(em, { seriesId: series.id }).page({ limit: 10 })).filter((s) => s.periodFrom.getTime() === last.from.getTime());
  if (!lastSet) return;
  await closeReviewSet(em, lastSet.id);
  await approveReviewSet(em, lastSet.id, { paymentMethod: 'bank_transfer' });
  const boxes = await boxList(em, { reviewSetId: lastSet.id }).page({ limit: 100 });
  for (const box of boxes) {
    await renderDraft(em, box.id);
    await finalizeBox(em, box.id);
  }
}
