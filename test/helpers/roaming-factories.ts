// Roaming setup test data over HTTP: partners (unique party ids per test run), connections and
// agreements, and switching roaming calculation on for the instance (POST /instance).
import type { TestApp } from './app.ts';

let counter = 0;
/** A fresh three-character party suffix per call (a process may run several test files). */
export function partySuffix(): string {
  counter += 1;
  const n = (process.pid * 37 + counter) % (36 ** 3);
  return n.toString(36).toUpperCase().padStart(3, '0');
}

async function ok(app: TestApp, method: string, path: string, body?: unknown) {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export function createRoamingPartner(app: TestApp, fields: Record<string, unknown> = {}) {
  return ok(app, 'POST', '/roaming-partner', { name: `Partner ${partySuffix()}`, country: 'NL', cpo_ids: [`NL*${partySuffix()}`], ...fields });
}

export function createRoamingConnection(app: TestApp, fields: Record<string, unknown> = {}) {
  return ok(app, 'POST', '/roaming-connection', { name: `Connection ${partySuffix()}`, kind: 'locally_owned', ...fields });
}

export function createRoamingAgreement(app: TestApp, connectionId: string, fields: Record<string, unknown> = {}) {
  return ok(app, 'POST', '/roaming-agreement', { connection_id: connectionId, role: 'msp', valid_from: '2025-01-01T00:00:00Z', ...fields });
}

/** A partner (CPO) with a locally owned connection and one agreement where we are the MSP. */
export async function roamingSetup(app: TestApp, agreement: Record<string, unknown> = {}, partner: Record<string, unknown> = {}) {
  const p = await createRoamingPartner(app, partner);
  const connection = await createRoamingConnection(app, { partner_id: p.id });
  const a = await createRoamingAgreement(app, connection.id, agreement);
  return { partner: p, connection, agreement: a, cpoId: p.cpo_ids[0] as string };
}

/** Switches roaming calculation on (or off) for the instance: POST /instance. */
export async function setRoamingEnabled(app: TestApp, enabled: boolean) {
  const body = await ok(app, 'POST', '/instance', { roaming_enabled: enabled });
  if (body.roaming_enabled !== enabled) throw new Error(`POST /instance answered roaming_enabled ${body.roaming_enabled}`);
}
