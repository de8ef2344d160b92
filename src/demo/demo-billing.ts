// The demo's billing: nl-main has a series, a logo and the seller's contact; last month is closed
// out (finalized boxes with their PDF and UBL; Jan de Vries's with his card's charge sessions, so
// his invoice has an annex), and this month has an open box that fills as sessions are priced.
import { billSubscriptionFees } from '../billing/sources/subscription-fee.source.ts';
import { billCustomItem } from '../billing/sources/custom-item.source.ts';
import { saveBillingSettings } from '../billing/billing-settings.service.ts';
import { createSeries } from '../billing/billing-series.service.ts';
import { boxList } from '../billing/billing-box.queries.ts';
import { approveReviewSet, closeReviewSet } from '../billing/review-set.service.ts';
import { reviewSetList } from '../billing/review-set.queries.ts';
import { renderDraft } from '../billing/render-draft.service.ts';
import { finalizeBox } from '../billing/finalize-box.service.ts';
import { periodAt } from '../billing/period-bounds.ts';
import type { Em } from '../platform/orm.ts';
import { setBillingLogo } from '../billing/billing-logo.service.ts';
import { ingestSession } from '../sessions/ingest-session.service.ts';
import { TokenLink } from '../msp/token-link.entity.ts';

const ZONE = 'Europe/Amsterdam';

/** The demo's logo: a plug in a rounded square and the name, in SVG. */
export const DEMO_LOGO = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 260 72">
  <rect x="2" y="6" width="60" height="60" rx="14" fill="#0b7a53"/>
  <path d="M36 14 L22 42 H32 L28 58 L44 28 H34 Z" fill="#ffffff"/>
  <text x="74" y="50" font-family="sans-serif" font-size="38" font-weight="bold" fill="#0b3d2e">Voltera</text>
</svg>`);

/**
 * Charge sessions of Jan de Vries's card last month (two locations, day and night), for the
 * pipeline to price (`processSessions`) before that month is closed out.
 */
async function lastMonthSessions(em: Em, period: { from: Date }, processSessions: () => Promise<unknown>): Promise<void> {
  const link = await em.findOneOrFail(TokenLink, { subscription: { externalReference: 'SUB-1001' } }, { populate: ['token'] });
  const places = [
    { street: 'Oudegracht 1', city: 'Utrecht', evse: 'NL*VOL*E0001', power: 'ac_3phase' },
    { street: 'Stationsplein 1', city: 'Utrecht', evse: 'NL*VOL*E0002', power: 'ac_3phase' },
    { street: 'Croeselaan 15', city: 'Utrecht', evse: 'NL*VOL*E0107', power: 'dc' },
  ];
  const hour = 3_600_000;
  const sessions = [
    { day: 3, at: 8.25, minutes: 95, kwh: '18.432', place: 0 }, { day: 6, at: 18.5, minutes: 240, kwh: '31.207', place: 1 },
    { day: 11, at: 12, minutes: 35, kwh: '27.5', place: 2 }, { day: 14, at: 23.5, minutes: 420, kwh: '41.09', place: 0 },
    { day: 19, at: 7.75, minutes: 110, kwh: '22.613', place: 1 }, { day: 24, at: 16, minutes: 30, kwh: '24.8', place: 2 },
    { day: 27, at: 9, minutes: 185, kwh: '16.25', place: 0 },
  ];
  for (const [i, s] of sessions.entries()) {
    const start = new Date(period.from.getTime() + (s.day - 1) * 24 * hour + s.at * hour);
    const end = new Date(start.getTime() + s.minutes * 60_000);
    const place = places[s.place];
    const payload = {
      session_id: `DEMO-M-${i + 1}`, cpo_id: 'NL*VOL', evco_id: link.token.evcoId, start_date_time: start.toISOString(), end_date_time: end.toISOString(),
      total_energy_kwh: s.kwh, time_zone: ZONE, address: { street: place.street, city: place.city, country: 'NL' }, evse_id: place.evse, power_type: place.power,
    };
    await ingestSession(em, {
      source: 'charge_session', sessionId: payload.session_id, sender: 'NL*VOL', cpoId: 'NL*VOL', evcoId: link.token.evcoId, startAt: start, endAt: end,
      energyKwh: s.kwh, idleSeconds: 0, timeZone: ZONE, country: 'NL', evseId: place.evse, evseUid: null, payload,
    }, { kick: false });
  }
  await processSessions();
}

export async function seedDemoBilling(em: Em, processSessions: () => Promise<unknown>, now = new Date()): Promise<void> {
  await saveBillingSettings(em, 'nl-main', {
    timeZone: ZONE, invoicingPeriod: 'month', paymentMethods: ['bank_transfer', 'direct_debit'], defaultPaymentMethod: 'bank_transfer', paymentTermDays: 14,
    seller: {
      name: 'Voltera Mobility B.V.', street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL', vat_number: 'NL858123456B01',
      company_reg_num: '71234567', email: 'billing@voltera.example', phone: '+31 30 760 0100', website: 'www.voltera.example',
      iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', bank_account_name: 'Voltera Mobility B.V.',
    },
  });
  await setBillingLogo(em, 'nl-main', { contentType: 'image/svg+xml', bytes: DEMO_LOGO });
  const series = await createSeries(em, { adminId: 'nl-main', code: 'VOL', name: 'Voltera NL invoices', externalReference: 'SERIES-NL-INVOICES' });
  const current = await periodAt(em, now, ZONE, 'month');
  const last = await periodAt(em, new Date(current.from.getTime() - 1), ZONE, 'month');
  const day = (period: typeof last, n: number) => `${period.first.slice(0, 8)}${String(n).padStart(2, '0')}`;
  const item = (customer: string, date: string, description: string, quantity: string, price: string, reference: string) => billCustomItem(em, {
    timeZone: ZONE, date, partyExternalReference: customer, adminId: 'nl-main', description, quantity, unit: 'stuk', unitPriceExclVat: price,
    vatKind: 'standard', productCategory: 'custom',
  }, reference);
  await item('CUST-1001', day(last, 5), 'Vervangende laadpas', '1', '7.50', 'DEMO-CARD-1001');
  await item('CUST-1002', day(last, 12), 'Controle wallbox-installatie', '2', '49.00', 'DEMO-CHECK-1002');
  await item('CUST-1002', day(current, 1), 'Wagenparkrapportage (maandelijks)', '1', '25.00', 'DEMO-REPORT-1002');
  await em.transactional((tx) => billSubscriptionFees(tx, { adminId: 'nl-main', country: 'NL', currency: 'EUR', timeZone: ZONE, kind: 'month', period: last }));
  await lastMonthSessions(em, last, processSessions);

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
