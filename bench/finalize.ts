// `npm run bench -- finalize`: finalizing a box of 10,000 charge sessions (number, PDF with its
// session annex over some 150 pages, UBL with the annex as embedded CSV), against the target of 10 s.
// Also prints the draft's render on approval, how long the series' number stays locked (from taking
// it to the commit), and the latency of a small finalize of the same series started while the large
// one renders, beside the same small finalize alone. SVC_BENCH_FINALIZE_SESSIONS changes the count.
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { boxList } from '../src/billing/billing-box.queries.ts';
import { createSeries } from '../src/billing/billing-series.service.ts';
import { saveBillingSettings } from '../src/billing/billing-settings.service.ts';
import { approveBox, closeBox } from '../src/billing/box-transitions.service.ts';
import { getDocument } from '../src/billing/document-store.ts';
import { finalizeBox } from '../src/billing/finalize-box.service.ts';
import { renderDraft } from '../src/billing/render-draft.service.ts';
import { billUnbilledSessions } from '../src/billing/sources/msp-session.source.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { createCustomer } from '../src/parties/save-customer.service.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { pricedSessionsSql } from '../test/helpers/priced-sessions.ts';
import type { BenchmarkResult } from './run.ts';
import { RUN_TAG, runId } from './run-tag.ts';

const SESSIONS = Number(process.env.SVC_BENCH_FINALIZE_SESSIONS ?? 10_000);
const ADMIN = runId('bench-finalize');
const TARGET_MS = 10_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function finalizeBenchmark(url: string): Promise<BenchmarkResult> {
  registerRestEventRenderers();
  const orm = await openOrm(ormConfig(url, { poolMax: 4 }));
  const em = scopedEm(orm);
  await createAdministration(em, { id: ADMIN, name: 'Bench finalize', currency: 'EUR', country: 'NL', localeId: 'nl-NL' });
  await saveBillingSettings(em, ADMIN, {
    timeZone: 'Europe/Amsterdam', seller: {
      name: 'Bench B.V.', street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL', vat_number: 'NL123456789B01',
      email: 'billing@bench.example', phone: '+31 30 000 0000', website: 'www.bench.example', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A',
    },
  });
  await createSeries(em, { adminId: ADMIN, code: 'FIN', externalReference: ADMIN });
  const parties = [];
  for (const [name, count] of [['Large Fleet B.V.', SESSIONS], ['Small One', 5], ['Small Two', 5]] as const) {
    const customer = await em.transactional((tx) => createCustomer(tx, { adminId: ADMIN, name, country: 'NL', entityType: 'organisation', externalReference: `${name} ${RUN_TAG}` }));
    await em.getConnection().execute(pricedSessionsSql({ adminId: ADMIN, customerId: customer.id, count, tag: `bench-${RUN_TAG}-${name}` }));
    parties.push(customer.id);
  }
  let started = performance.now();
  await billUnbilledSessions(scopedEm(orm), ADMIN);
  console.log(`  billed ${SESSIONS + 10} sessions into boxes in ${seconds(performance.now() - started)}`);
  // This run's boxes only: the billing benchmark leaves thousands in the same database.
  const boxes = await boxList(em, { adminId: ADMIN }).page({ limit: 10 });
  const [large, small, during] = parties.map((id) => boxes.find((b) => b.partyId === id)!.id);
  for (const id of [large, small, during]) {
    await closeBox(scopedEm(orm), id);
    await approveBox(scopedEm(orm), id);
  }
  started = performance.now();
  await renderDraft(scopedEm(orm), large);
  console.log(`  draft of the large box (render on approval): ${seconds(performance.now() - started)}`);
  for (const id of [small, during]) await renderDraft(scopedEm(orm), id);

  started = performance.now();
  await finalizeBox(scopedEm(orm), small);
  const alone = performance.now() - started;

  let numberTakenAt = 0;
  started = performance.now();
  const finalizing = finalizeBox(scopedEm(orm), large, { beforeNumber: async () => { numberTakenAt = performance.now(); } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const duringStarted = performance.now();
  const duringDone = await finalizeBox(scopedEm(orm), during).then((box) => ({ at: performance.now(), code: box.invoiceCode }));
  const finalized = await finalizing;
  const total = performance.now() - started;
  const locked = performance.now() - numberTakenAt;
  const pdf = await getDocument(em, large, { filename: `${finalized.invoiceCode}.pdf` });
  const xml = await getDocument(em, large, { filename: `${finalized.invoiceCode}.xml` });
  console.log(`  finalize of ${SESSIONS} sessions: ${seconds(total)} (laid out in ${seconds(numberTakenAt - started)}, the series' number locked for at most `
    + `${(locked).toFixed(0)} ms); PDF ${(pdf!.bytes.length / 1024).toFixed(0)} KB, UBL ${(xml!.bytes.length / 1024).toFixed(0)} KB`);
  console.log(`  a small finalize of the same series: ${(alone).toFixed(0)} ms alone, ${(duringDone.at - duringStarted).toFixed(0)} ms while the large one renders `
    + `(${duringDone.at < numberTakenAt ? 'done before the large one took its number' : 'waited for the large one'}; numbers ${duringDone.code}, ${finalized.invoiceCode})`);
  await orm.close();
  return { name: `finalizing a box of ${SESSIONS} sessions`, unit: 'ms', figure: total, baseline: TARGET_MS, baselineLabel: 'the target' };
}
