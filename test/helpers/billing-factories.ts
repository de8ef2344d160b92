// Billing test data: an administration's series and settings, and waiting for the worker's
// part of an approval (the box becomes ready).
import type { TestApp } from './app.ts';
import { createAdministration, createCustomer, okCall } from './factories.ts';

let counter = 0;

export async function createSeries(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const n = `${process.pid}${++counter}`.slice(-6);
  const r = await app.request('POST', '/main/v1/billing-series', { body: { admin_id: adminId, code: `INV${n}`, external_reference: `series-${n}`, ...fields } });
  if (r.status !== 200) throw new Error(`series: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, any> & { id: string; code: string };
}

export const SELLER = {
  name: 'Charge Co B.V.', street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL',
  vat_number: 'NL123456789B01', company_reg_num: '12345678', email: 'billing@charge.example', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A',
  bank_account_name: 'Charge Co B.V.',
};

export async function configureBilling(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const r = await app.request('POST', `/main/v1/administration/${adminId}/billing-settings`, {
    body: { time_zone: 'Europe/Amsterdam', seller: SELLER, payment_term_days: 14, ...fields },
  });
  if (r.status !== 200) throw new Error(`billing settings: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function boxesOf(app: TestApp, query = '') {
  const r = await app.request('GET', `/main/v1/billing-box${query}`);
  if (r.status !== 200) throw new Error(`boxes: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items as any[];
}

/** Polls a box until it reaches `state` (the worker renders the draft after approval). */
export async function boxInState(app: TestApp, id: string, state: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await app.request('GET', `/main/v1/billing-box/${id}`);
    if (r.status === 200 && r.body.state === state) return r.body;
    if (Date.now() > until) throw new Error(`box ${id} not ${state}: ${JSON.stringify(r.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls a review-set operation (a close or approve run as a job) until it is no longer pending. */
export async function operationFinished(app: TestApp, id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await app.request('GET', `/main/v1/billing-review-set-operation/${id}`);
    if (r.status === 200 && r.body.state !== 'pending') return r.body;
    if (Date.now() > until) throw new Error(`operation ${id} still pending: ${JSON.stringify(r.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** POST /billing-review-set/{id}/close or /approve (202: a job), then the operation once the worker is through with it. */
export async function reviewSetOperation(app: TestApp, setId: string, operation: 'close' | 'approve', body?: unknown) {
  const r = await app.request('POST', `/main/v1/billing-review-set/${setId}/${operation}`, body === undefined ? {} : { body });
  if (r.status !== 202) throw new Error(`${operation} of review-set ${setId}: ${r.status} ${JSON.stringify(r.body)}`);
  if (r.headers.get('location') !== `/main/v1/billing-review-set-operation/${r.body.id}`) throw new Error(`no Location: ${r.headers.get('location')}`);
  return operationFinished(app, r.body.id);
}

/** As reviewSetOperation, failing unless the operation is done. */
export async function reviewSetDone(app: TestApp, setId: string, operation: 'close' | 'approve', body?: unknown) {
  const finished = await reviewSetOperation(app, setId, operation, body);
  if (finished.state !== 'done') throw new Error(`${operation} of review-set ${setId}: ${JSON.stringify(finished)}`);
  return finished;
}

export interface CustomItemBoxOptions {
  seller?: Record<string, unknown>;
  customer?: Record<string, unknown>;
  address?: Record<string, unknown>;
  reference?: string;
  items: Record<string, unknown>[];
}

/** A new administration's box of custom items (en-GB, a seller of SELLER's), closed, approved and finalized: the finalize's answer and the box. */
export async function finalizedCustomItemBox(app: TestApp, options: CustomItemBoxOptions) {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id, { seller: { ...SELLER, ...options.seller } });
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, options.customer);
  if (options.address) {
    await okCall(app, 'POST', `/billing-address/ext_ref.addr-${customer.id}`, { party_id: customer.id, country: 'NL', ...options.address });
  }
  let boxId = '';
  for (const item of options.items) {
    boxId = (await okCall(app, 'POST', '/billing-custom-item', {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', ...item,
    })).box_id;
  }
  await okCall(app, 'POST', `/billing-box/${boxId}/close`, options.reference ? { billing_reference: options.reference } : undefined);
  await okCall(app, 'POST', `/billing-box/${boxId}/approve`);
  await boxInState(app, boxId, 'ready');
  return { final: await app.request('POST', `/main/v1/billing-box/${boxId}/finalize`), boxId };
}
