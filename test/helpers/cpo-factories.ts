// CPO test data over REST: EVSEs, reimbursement arrangements and their links.
import type { TestApp } from './app.ts';

let counter = 0;
const next = () => `${process.pid}-${++counter}`;

async function post(app: TestApp, path: string, body: unknown) {
  const r = await app.request('POST', `/main/v1${path}`, { body });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export function createEvse(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const n = next();
  return post(app, '/cpo-evse', { admin_id: adminId, evse_uid: `EVSE-${n}`, evse_id: `NL*VOL*E${n.replace('-', '')}`, ...fields });
}

export function createArrangement(app: TestApp, adminId: string, customerId: string, fields: Record<string, unknown> = {}) {
  return post(app, '/cpo-reimbursement-arrangement', { admin_id: adminId, customer_id: customerId, valid_from: '2026-01-01T00:00:00Z', ...fields });
}

export function linkEvse(app: TestApp, arrangementId: string, evseUid: string, fields: Record<string, unknown> = {}) {
  return post(app, '/cpo-reimbursement-link', { arrangement_id: arrangementId, evse_uid: evseUid, ...fields });
}
