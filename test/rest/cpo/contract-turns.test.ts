// Writes of one CPO contract and its links take turns (since 2026-11-29, found by probing): the CPO
// subscription's and reimbursement arrangement's services read the contract without its lock, so a
// write that waited for another worked on what it read before: a second end date with the recurring
// cost correction started from the first one's bounds (September stayed billed to the first end), a
// valid_from moved back beside a new link of the same EVSE gave overlapping links (its per-EVSE fee
// twice), a defunct beside new links left them live, and custom_fields merges lost keys. Each test
// holds the contract's row while its requests arrive, one after the other, then lets them run
// (serial: the lock waits counted are those of the database).
import test from 'ava';
import pg from 'pg';
import { startTestApp, type TestApp, type Response } from '../../helpers/app.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createArrangement, createEvse } from '../../helpers/cpo-factories.ts';
import { lockWaits } from '../../helpers/db.ts';
import { billedFees } from '../../helpers/fee-billing.ts';
import { createAdministration, createCustomer, createTokenSubscription, okCall } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });
const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

/** Sends the requests while a transaction holds the row, each once the one before waits, then lets them go. */
async function whileHeld(table: string, id: string, requests: (() => Promise<Response>)[]): Promise<Response[]> {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(`select 1 from ${table} where id = $1 for update`, [id]);
    const answers: Promise<Response>[] = [];
    for (const request of requests) {
      answers.push(request());
      const waiting = answers.length;
      for (const until = Date.now() + 10_000; await lockWaits(db) < waiting;) {
        if (Date.now() > until) throw new Error(`request ${waiting} never waited for the ${table} row`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await db.query('commit');
    return await Promise.all(answers);
  } finally {
    await db.end();
  }
}

const outcome = (r: Response) => (r.status === 200 ? 200 : `${r.status} ${r.body.code}`);

async function cpoSubscription(adminId: string, validFrom: string, costs: unknown[] = []) {
  const customer = await createCustomer(app, adminId);
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: adminId, name: 'Hosting' });
  if (costs.length) await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-07-01`, { recurring_costs: costs });
  return { customer, subscription: await ok('POST', '/cpo-subscription', { customer_id: customer.id, plan_id: plan.id, valid_from: validFrom }) };
}

/** An administration whose months from `months` have a box (a custom item each), so fees are billed there. */
async function billedAdministration(months: string[]) {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  for (const month of months) {
    await ok('POST', '/billing-custom-item', {
      time_zone: 'Europe/Amsterdam', date: `${month}-02`, party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
    });
  }
  return admin.id as string;
}

async function feesByMonth(adminId: string) {
  const months: Record<string, string[]> = {};
  for (const fee of await billedFees(app, adminId, 'cpo_subscription_fee')) (months[fee.subjectId.split('/')[1]] ??= []).push(fee.amount);
  return months;
}

test.serial('two end dates with the recurring cost correction: the second bills again from the first one\'s end', async (t) => {
  const adminId = await billedAdministration(['2026-09', '2026-10']);
  const { subscription } = await cpoSubscription(adminId, '2026-08-01T00:00:00+02:00', [{ description: 'Service', amount_excl_vat: '30.00', period: 'month' }]);
  const end = (until: string) => () => app.request('POST', `/main/v1/cpo-subscription/${subscription.id}`, { body: { valid_until: until, recurring_cost_correction: true } });
  const answers = await whileHeld('cpo_subscription', subscription.id, [end('2026-09-16T00:00:00+02:00'), end('2026-10-21T00:00:00+02:00')]);
  t.deepEqual(answers.map(outcome), [200, 200]);
  // Ends 21 October: September whole, October 20 of 31 days (19.35); nothing left of the 16 September end.
  const fees = await feesByMonth(adminId);
  t.deepEqual([fees['2026-09'], fees['2026-10']], [['30.00'], ['19.35']]);
});

test.serial('a valid_from moved back beside a new link of the same EVSE: the link made second sees the move and is refused', async (t) => {
  const adminId = await billedAdministration(['2026-08']);
  const { subscription } = await cpoSubscription(adminId, '2026-09-01T00:00:00+02:00', [{ description: 'Hosting', amount_excl_vat: '31.00', period: 'month', per: 'evse' }]);
  const evse = await createEvse(app, adminId);
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evse.evse_uid });
  const answers = await whileHeld('cpo_subscription', subscription.id, [
    () => app.request('POST', `/main/v1/cpo-subscription/${subscription.id}`, { body: { valid_from: '2026-08-01T00:00:00+02:00' } }),
    () => app.request('POST', '/main/v1/cpo-subscription-evse-link', { body: {
      subscription_id: subscription.id, evse_uid: evse.evse_uid, valid_from: '2026-08-10T00:00:00+02:00', valid_until: '2026-09-01T00:00:00+02:00' } }),
  ]);
  t.deepEqual(answers.map(outcome), [200, '400 overlapping_evse_link']);
  t.deepEqual((await feesByMonth(adminId))['2026-08'], ['31.00'], 'the EVSE\'s August fee once');
});

test.serial('a defunct beside new links: the links made after it are refused and none stays live', async (t) => {
  const admin = await createAdministration(app);
  const { customer, subscription } = await cpoSubscription(admin.id, '2026-09-01T00:00:00+02:00');
  const arrangement = await createArrangement(app, admin.id, customer.id);
  const [first, second] = [await createEvse(app, admin.id), await createEvse(app, admin.id)];
  const cases = [
    { table: 'cpo_subscription', path: 'cpo-subscription', links: 'cpo-subscription-evse-link', member: 'subscription_id', id: subscription.id, code: 'cpo_subscription_defunct' },
    { table: 'cpo_reimbursement_arrangement', path: 'cpo-reimbursement-arrangement', links: 'cpo-reimbursement-link', member: 'arrangement_id', id: arrangement.id,
      code: 'reimbursement_arrangement_defunct' },
  ];
  for (const c of cases) {
    const link = (evseUid: string) => () => app.request('POST', `/main/v1/${c.links}`, { body: { [c.member]: c.id, evse_uid: evseUid } });
    const answers = await whileHeld(c.table, c.id, [link(first.evse_uid), () => app.request('PUT', `/main/v1/${c.path}/${c.id}/defunct`), link(second.evse_uid)]);
    t.deepEqual(answers.map(outcome), [200, 200, `400 ${c.code}`], c.path);
    const links = (await ok('GET', `/${c.links}?${c.member}=${c.id}`)).items as { defunct: boolean }[];
    t.deepEqual(links.map((l) => l.defunct), [true], c.path);
  }
});

test.serial('custom_fields merges of one contract: every key lands', async (t) => {
  const admin = await createAdministration(app);
  const { customer, subscription } = await cpoSubscription(admin.id, '2026-09-01T00:00:00+02:00');
  const arrangement = await createArrangement(app, admin.id, customer.id);
  for (const [table, path, id] of [['cpo_subscription', 'cpo-subscription', subscription.id], ['cpo_reimbursement_arrangement', 'cpo-reimbursement-arrangement', arrangement.id]]) {
    const merge = (key: string) => () => app.request('POST', `/main/v1/${path}/${id}`, { body: { custom_fields: { [key]: key } } });
    t.deepEqual((await whileHeld(table, id, [merge('a'), merge('b'), merge('c')])).map(outcome), [200, 200, 200]);
    t.deepEqual((await ok('GET', `/${path}/${id}`)).custom_fields, { a: 'a', b: 'b', c: 'c' }, path);
  }
});

// A contract's write locked the rows of its plan and customer too (a FOR UPDATE of the join that loaded
// them): writes of those, and of every other contract of the plan or customer, waited for it.
test.serial('a write of a contract holds its own row only: its customer and plan are written meanwhile', async (t) => {
  const admin = await createAdministration(app);
  const { customer, subscription } = await cpoSubscription(admin.id, '2026-09-01T00:00:00+02:00');
  const msp = await createTokenSubscription(app, admin.id);
  const cases = [
    { table: 'cpo_subscription', id: subscription.id, write: `/cpo-subscription/${subscription.id}`,
      meanwhile: [`/customer/${customer.id}`, `/cpo-subscription-plan/${subscription.plan_id}`] },
    { table: 'msp_token_subscription', id: msp.id, write: `/msp-token-subscription/${msp.id}`,
      meanwhile: [`/customer/${msp.customer_id}`, `/msp-token-subscription-plan/${msp.plan_id}`] },
  ];
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const hold = 736_499_002;
  const trigger = `hold_contract_${process.pid}`;
  t.teardown(async () => {
    for (const c of cases) await db.query(`drop trigger if exists ${trigger} on ${c.table}`);
    await db.query('select pg_advisory_unlock_all()');
    await db.end();
  });
  // The contract's update waits for the test, inside its transaction, after it loaded what it locks.
  await db.query(`create or replace function ${trigger}() returns trigger language plpgsql as $$ begin
      perform pg_advisory_xact_lock(${hold}); return new; end $$`);
  for (const c of cases) {
    await db.query('select pg_advisory_lock($1)', [hold]);
    await db.query(`create trigger ${trigger} before update on ${c.table} for each row when (new.id = '${c.id}') execute function ${trigger}()`);
    const update = app.request('POST', `/main/v1${c.write}`, { body: { custom_fields: { held: true } } });
    for (const until = Date.now() + 10_000; await lockWaits(db) < 1;) {
      if (Date.now() > until) throw new Error('the update never waited');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const meanwhile = await Promise.race([
      Promise.all(c.meanwhile.map((path) => app.request('POST', `/main/v1${path}`, { body: { name: 'Renamed meanwhile' } }))).then((answers) => answers.map(outcome)),
      new Promise((resolve) => setTimeout(() => resolve('waited for the contract'), 5_000)),
    ]);
    await db.query('select pg_advisory_unlock($1)', [hold]);
    t.deepEqual(meanwhile, [200, 200], c.table);
    t.is((await update).status, 200, c.table);
  }
});
