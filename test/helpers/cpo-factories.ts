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

export async function createLocation(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  return post(app, '/cpo-evse-location', {
    admin_id: adminId, location_id: `LOC-${next()}`, name: 'Station', address: { street: 'Stationsplein 1', city: 'Utrecht', postal_code: '3511 ED', country: 'NL' },
    time_zone: 'Europe/Amsterdam', ...fields,
  });
}

/** An EVSE at a new location with one connector: what matching needs. */
export async function createLocatedEvse(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const location = await createLocation(app, adminId);
  return createEvse(app, adminId, { location_id: location.location_id, connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }], ...fields });
}

/** A reimbursement plan with inputs from 2026-01-01 (`inputs`: component → value; `custom:<var>` for variables). */
export async function createReimbursementPlan(app: TestApp, adminId: string, fields: Record<string, unknown> = {}, inputs: Record<string, string> = {}) {
  const plan = await post(app, '/cpo-reimbursement-plan', { admin_id: adminId, name: `Plan ${next()}`, ...fields });
  for (const [key, value] of Object.entries(inputs)) {
    const path = key.startsWith('custom:') ? `custom/${key.slice(7)}` : key;
    const r = await app.request('PUT', `/main/v1/cpo-reimbursement-plan/${plan.id}/calculation-input/2026-01-01/${path}`, { body: { value } });
    if (r.status !== 200) throw new Error(`input ${key}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return plan;
}

/** An arrangement of `customerId` on `planId`, linked to the EVSE. */
export async function reimburseEvse(app: TestApp, adminId: string, customerId: string, planId: string, evseUid: string, fields: Record<string, unknown> = {}) {
  const arrangement = await createArrangement(app, adminId, customerId, fields);
  await post(app, `/cpo-reimbursement-arrangement/${arrangement.id}/switch-plan`, { plan_id: planId });
  await linkEvse(app, arrangement.id, evseUid);
  return arrangement;
}

export function cpoSessionBody(evseUid: string, overrides: Record<string, unknown> = {}) {
  return {
    session_id: `CS-${next()}`, evse_uid: evseUid, evco_id: 'NL-XXX-C00000001-X', start_date_time: '2026-03-02T10:00:00+01:00',
    end_date_time: '2026-03-02T11:00:00+01:00', total_energy_kwh: '10', time_zone: 'Europe/Amsterdam',
    address: { street: 'Stationsplein 1', city: 'Utrecht', postal_code: '3511 ED', country: 'NL' }, ...overrides,
  };
}

/** Polls a CPO session until processing is done with it (not waiting for a matching attempt). */
export async function settledCpoSession(app: TestApp, id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await app.request('GET', `/main/v1/cpo-charge-session/${id}`);
    if (r.status === 200 && r.body.status !== 'received') return r.body;
    if (Date.now() > until) throw new Error(`session ${id} not processed: ${JSON.stringify(r.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
