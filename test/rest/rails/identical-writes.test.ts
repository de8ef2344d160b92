// Identical writes sent at the same moment answer as they would one at a time, never 500 and never
// a 400 that a request right after the first would not get: the creates of an upsert or a set by key
// take the key's unique constraint (or the lock of what they change) as the check, and the requests
// that lose merge into what the first stored (decisions.md, "Identical writes sent at the same moment").
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createReimbursementPlan } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const AT_ONCE = 6;

test('creates by key sent at once: every one answered 200, one record stored', async (t) => {
  const admin = (await createAdministration(app)).id;
  const customer = await createCustomer(app, admin);
  const cpoPlan = await okCall(app, 'POST', '/cpo-subscription-plan', { admin_id: admin, name: 'Hosting' });
  const reimbursementPlan = await createReimbursementPlan(app, admin);
  // Each write by the key of its round: [name, method, path, body, the read of the one stored].
  const writes = (round: number): [string, string, string, unknown, string][] => {
    const key = `${admin}-${round}`;
    const date = `2026-0${round + 4}-01`;
    return [
      ['rate plan by ext_ref', 'POST', `/rate-plan/ext_ref.rp-${key}`, { name: 'Raced', currency: 'EUR' }, `/rate-plan/ext_ref.rp-${key}`],
      ['subscription plan by ext_ref', 'POST', `/msp-token-subscription-plan/ext_ref.sp-${key}`, { admin_id: admin, name: 'Raced' },
        `/msp-token-subscription-plan/ext_ref.sp-${key}`],
      ['token brand', 'POST', `/msp-token-brand/B-${key}`, { name: 'Raced' }, '/msp-token-brand'],
      ['direct debit mandate by ext_ref', 'POST', `/billing-direct-debit-mandate/ext_ref.dd-${key}`, {
        customer_id: customer.id, bank_account_name: 'A. Lovelace', iban: 'NL91ABNA0417164300', valid_from: `${date}T00:00:00Z`,
        valid_until: `2026-0${round + 4}-15T00:00:00Z`,
      }, `/direct-debit-mandate/ext_ref.dd-${key}`],
      ['CPO plan version', 'POST', `/cpo-subscription-plan/${cpoPlan.id}/${date}`,
        { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '10.00', period: 'month' }] }, `/cpo-subscription-plan/${cpoPlan.id}`],
      ['calculation input', 'PUT', `/cpo-reimbursement-plan/${reimbursementPlan.id}/calculation-input/${date}/energy`, { value: '0.25' },
        `/cpo-reimbursement-plan/${reimbursementPlan.id}/calculation-input`],
    ];
  };
  const problems: string[] = [];
  for (let round = 0; round < 3; round++) {
    for (const [name, method, path, body, read] of writes(round)) {
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => app.request(method, `/main/v1${path}`, { body })
        .catch((error: Error) => ({ status: 500, body: { message: error.message.slice(0, 120) } }))));
      const refused = answers.filter((a) => a.status !== 200);
      if (refused.length) problems.push(`${name}, round ${round}: ${refused.length} of ${AT_ONCE} answered ${JSON.stringify(refused[0])}`);
      else t.is((await app.request('GET', `/main/v1${read}`)).status, 200, name);
    }
  }
  t.deepEqual(problems, []);
  t.is((await okCall(app, 'GET', `/cpo-subscription-plan/${cpoPlan.id}`)).versions.length, 3, 'one version a date');
  t.is((await okCall(app, 'GET', `/cpo-reimbursement-plan/${reimbursementPlan.id}/calculation-input`)).length, 3, 'one input a date');
  t.is((await okCall(app, 'GET', '/msp-token-brand')).items.filter((b: any) => b.code.startsWith(`B-${admin}-`)).length, 3, 'one brand a code');
  t.is((await okCall(app, 'GET', `/customer/${customer.id}/direct-debit-mandate`)).items.length, 3, 'one mandate a reference');
});

test('the first billing settings of an administration sent at once: every one answered 200, each change kept', async (t) => {
  for (let round = 0; round < 3; round++) {
    const admin = (await createAdministration(app)).id;
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => app.request('POST', `/main/v1/administration/${admin}/billing-settings`,
      { body: i % 2 === 0 ? { payment_term_days: 30 } : { invoicing_period: 'quarter' } })));
    t.deepEqual(answers.map((r) => r.status), answers.map(() => 200), JSON.stringify(answers.find((r) => r.status !== 200)?.body));
    t.like((await app.request('GET', `/main/v1/administration/${admin}/billing-settings`)).body, { payment_term_days: 30, invoicing_period: 'quarter' });
  }
});
