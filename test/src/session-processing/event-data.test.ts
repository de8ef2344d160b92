// A processing batch renders the data of its sessions' update events and of their pricing results'
// create events from the rows it wrote (src/session-processing/record-outcomes.ts): that data is
// what the GETs answer right after the batch, with credit used, a rule script's lines and
// annotations, and a drop-out.
import test from 'ava';
import { processSessionBatch } from '../../../src/session-processing/process-sessions.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  // The test runs the batch itself, then compares before anything else changes the rows.
  await app.stopWorker();
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

async function eventsOf(kind: string, ids: string[]): Promise<Map<string, unknown>> {
  const rows = await app.orm.em.fork().execute<{ resource_id: string; data: unknown }[]>(
    `select resource_id, data from svc_event where kind = ? and modification <> 'delete' and resource_id = any(?::text[]) order by id`, [kind, `{${ids.join(',')}}`]);
  return new Map(rows.map((row) => [row.resource_id, row.data]));
}

const SCRIPT = `return { annotations: { cpo_price: input.cpo_cost_excl_vat ?? 'none' },
  subtotals: [{ component: 'service', label: 'Service', amount_excl_vat: '0.255' }] };`;

test('the batch\'s session and pricing result events hold what the GETs answer after it', async (t) => {
  const admin = (await createAdministration(app)).id;
  const withCredit = await pricedSubscription(app, admin, { credit: '7.125' });
  const scripted = await pricedSubscription(app, admin, {
    definition: { rates: { energy: { price: '0.45', step_size: '0.001' }, flat: { price: '0.35' } }, rules: [{ name: 'Scripted', match: { cpo_party_ids: ['NL*ABC'] }, rates: {}, script: SCRIPT }] },
  });
  const ids = [
    (await submitSession(app, sessionBody(withCredit.evcoId, { total_energy_kwh: '12.3456' }))).id,
    (await submitSession(app, sessionBody(withCredit.evcoId, { total_energy_kwh: '3' }))).id,
    (await submitSession(app, sessionBody(scripted.evcoId, { total_roaming_amount_excl_vat: '4.5' }))).id,
    (await submitSession(app, sessionBody('NL-UNK-C00000009-X'))).id,
  ];
  t.is(await processSessionBatch(app.orm, 500), ids.length);
  const sessions = await eventsOf('msp_charge_session', ids);
  const results = new Map<string, string>();
  for (const id of ids) {
    const session = (await app.request('GET', api(`/msp-charge-session/${id}`))).body;
    t.deepEqual(sessions.get(id), session, id);
    const priced = (await app.request('GET', api(`/msp-charge-session-priced?charge_session_id=${id}`))).body.items;
    for (const result of priced) results.set(result.id, result);
  }
  t.is(results.size, 3, 'the unknown token dropped out');
  const data = await eventsOf('msp_charge_session_priced', [...results.keys()]);
  for (const [id, result] of results) t.deepEqual(data.get(id), result, id);
  t.true([...results.values()].some((r: any) => r.monetary_credit_used !== '0.00'), 'credit used');
  t.true([...results.values()].some((r: any) => Object.keys(r.annotations).length > 0), 'annotations');
});
