// Charge-session test data: a priced subscription (VAT rate, rate plan, plan, subscription, token)
// and session bodies, plus waiting for the asynchronous pipeline.
import { startTestApp, type TestApp } from './app.ts';
import { createAdministration, createSubscriptionPlan, createTokenSubscription, insertToken, insertTokenLink } from './factories.ts';

let counter = 0;
const next = () => `${process.pid}-${++counter}`;

export async function ensureVatRate(app: TestApp, country = 'NL', percentage = '21', vatKind = 'standard') {
  const r = await app.request('POST', '/main/v1/vat-rate', { body: { country, vat_kind: vatKind, percentage, valid_from: '2020-01-01T00:00:00Z' } });
  if (r.status !== 200 && r.body?.code !== 'overlapping_vat_rate') throw new Error(`vat rate: ${JSON.stringify(r.body)}`);
}

export async function createRatePlan(app: TestApp, versions: { valid_from: string; definition: unknown }[], adminIds?: string[]) {
  const plan = await app.request('POST', '/main/v1/rate-plan', { body: { name: `Rates ${next()}`, currency: 'EUR', ...(adminIds ? { admin_ids: adminIds } : {}) } });
  if (plan.status !== 200) throw new Error(`rate plan: ${JSON.stringify(plan.body)}`);
  for (const version of versions) {
    const r = await app.request('POST', `/main/v1/rate-plan/${plan.body.id}/version`, { body: version });
    if (r.status !== 200) throw new Error(`rate plan version: ${JSON.stringify(r.body)}`);
  }
  return plan.body.id as string;
}

export const SIMPLE_RATES = { rates: { energy: { price: '0.50' } }, rules: [] };

/** A subscription whose plan prices with `definition` (or a given rate plan), with one linked token. */
/** The session tests' usual start: a test app, an administration and the token of a priced subscription of it. */
export async function startPricedApp(options: Parameters<typeof pricedSubscription>[2] = {}): Promise<{ app: TestApp; adminId: string; evcoId: string }> {
  const app = await startTestApp();
  const adminId = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, adminId, options);
  return { app, adminId, evcoId };
}

export async function pricedSubscription(app: TestApp, adminId: string, options: {
  definition?: unknown; ratePlanId?: string; plan?: Record<string, unknown>; credit?: string;
} = {}) {
  await ensureVatRate(app);
  const ratePlanId = options.ratePlanId ?? await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: options.definition ?? SIMPLE_RATES }]);
  const plan = await createSubscriptionPlan(app, adminId, { rate_plan_id: ratePlanId, ...options.plan });
  const subscription = await createTokenSubscription(app, adminId, { plan_id: plan.id, external_reference: `SUB-${next()}` });
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id);
  if (options.credit) {
    const r = await app.request('POST', `/main/v1/msp-token-subscription/${subscription.id}/monetary-credit`, { body: { amount: options.credit } });
    if (r.status !== 200) throw new Error(`credit: ${JSON.stringify(r.body)}`);
  }
  return { evcoId: token.evcoId, tokenId: token.id, subscriptionId: subscription.id, customerId: subscription.customer_id as string, planId: plan.id, ratePlanId };
}

export function sessionBody(evcoId: string, overrides: Record<string, unknown> = {}) {
  return {
    session_id: `S-${next()}`,
    cpo_id: 'NL*ABC',
    evco_id: evcoId,
    start_date_time: '2026-03-02T10:00:00+01:00',
    end_date_time: '2026-03-02T11:00:00+01:00',
    total_energy_kwh: '10',
    time_zone: 'Europe/Amsterdam',
    address: { street: 'Stationsplein 1', city: 'Utrecht', postal_code: '3511 ED', country: 'NL' },
    evse_id: 'NL*ABC*E1234',
    ...overrides,
  };
}

export async function submitSession(app: TestApp, body: Record<string, unknown>, path = '/main/v1/charge-session') {
  const r = await app.request('POST', path, { body });
  if (r.status !== 200) throw new Error(`submit: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; status: string; duplicate: boolean };
}

/** Polls the session until the pipeline is done with it (status other than received). */
export async function processed(app: TestApp, id: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await app.request('GET', `/main/v1/msp-charge-session/${id}`);
    if (r.status === 200 && r.body.status !== 'received') return r.body;
    if (Date.now() > until) throw new Error(`session ${id} not processed: ${JSON.stringify(r.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function pricingResults(app: TestApp, sessionId: string) {
  const r = await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${sessionId}`);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.items as any[];
}
