import type { TestApp } from './app.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { Administration } from '../../src/parties/administration.entity.ts';
import { Seller } from '../../src/parties/seller.entity.ts';

let sequence = 0;
const next = () => ++sequence;

/** An administration (and its seller), created directly: there is no REST endpoint for it. */
/** A /main/v1 call that must answer 200: its body (else it throws, naming the answer). */
export async function okCall(app: TestApp, method: string, path: string, body?: unknown) {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function createAdministration(app: TestApp, overrides: Partial<{ id: string; name: string; currency: string; country: string; localeId: string }> = {}) {
  const em = scopedEm(app.orm);
  const n = next();
  const seller = em.create(Seller, { name: `Seller ${n}`, country: overrides.country ?? 'NL' });
  const admin = em.create(Administration, {
    id: overrides.id ?? `adm-${process.pid}-${n}`,
    name: overrides.name ?? `Administration ${n}`,
    currency: overrides.currency ?? 'EUR',
    country: overrides.country ?? 'NL',
    localeId: overrides.localeId ?? 'nl-NL',
    seller,
  });
  await em.flush();
  return { id: admin.id, sellerId: seller.id };
}

export async function createCustomer(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const n = next();
  const response = await app.request('POST', `/main/v1/customer/ext_ref.cust-${process.pid}-${n}`, {
    body: { admin_id: adminId, name: `Customer ${n}`, country: 'NL', ...fields },
  });
  if (response.status !== 200) throw new Error(`customer factory: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any> & { id: string };
}

export async function createEndUser(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const n = next();
  const response = await app.request('POST', '/main/v1/end-user', {
    body: { admin_id: adminId, username: `user-${process.pid}-${n}`, ...fields },
  });
  if (response.status !== 200) throw new Error(`end user factory: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any> & { id: string };
}

import { SubscriptionPlan } from '../../src/msp/subscription-plan.entity.ts';
import { TokenSeries } from '../../src/msp/token-series.entity.ts';
import { TokenSubscription } from '../../src/msp/token-subscription.entity.ts';
import { TokenLink } from '../../src/msp/token-link.entity.ts';
import { Token } from '../../src/msp/token.entity.ts';

/** A subscription plan written directly through the ORM (no REST round trip). */
export async function insertSubscriptionPlan(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const em = scopedEm(app.orm);
  const plan = em.create(SubscriptionPlan, { admin: adminId, name: `Plan ${next()}`, ...fields });
  await em.flush();
  return { id: plan.id as string };
}

/** A token subscription (with a plan and a customer unless given) written directly through the ORM. */
export async function insertTokenSubscription(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const planId = (fields.plan as string | undefined) ?? (await insertSubscriptionPlan(app, adminId)).id;
  const customerId = (fields.customer as string | undefined) ?? (await createCustomer(app, adminId)).id;
  const em = scopedEm(app.orm);
  const subscription = em.create(TokenSubscription, {
    admin: adminId, plan: planId, customer: customerId, validFrom: new Date('2026-01-01T00:00:00Z'), ...fields,
  });
  await em.flush();
  return { id: subscription.id as string, planId, customerId };
}

/** A token series written directly through the ORM. */
export async function insertTokenSeries(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const em = scopedEm(app.orm);
  const n = next();
  const evcoPrefix = `NL${n.toString(36).toUpperCase().padStart(3, '0')}C`;
  const series = em.create(TokenSeries, { admin: adminId, name: `Series ${n}`, evcoPrefix, ...fields });
  await em.flush();
  return { id: series.id as string };
}

/** A token written directly through the ORM, with a made-up EVCO id unless given. */
export async function insertToken(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const em = scopedEm(app.orm);
  const evcoId = `NLINS${String(next()).padStart(9, '0')}`;
  const token = em.create(Token, { evcoId, initialAdmin: adminId, currentAdmin: adminId, ...fields });
  await em.flush();
  return { id: token.id as string, evcoId: token.evcoId as string };
}

/** A token link written directly through the ORM (no overlap check). */
export async function insertTokenLink(app: TestApp, adminId: string, subscriptionId: string, tokenId: string, fields: Record<string, unknown> = {}) {
  const em = scopedEm(app.orm);
  const link = em.create(TokenLink, { admin: adminId, subscription: subscriptionId, token: tokenId, ...fields });
  await em.flush();
  return { id: link.id as string };
}

/** A subscription plan created over REST (POST /msp-token-subscription-plan). */
export async function createSubscriptionPlan(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const response = await app.request('POST', '/main/v1/msp-token-subscription-plan', { body: { admin_id: adminId, name: `Plan ${next()}`, ...fields } });
  if (response.status !== 200) throw new Error(`plan factory: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any> & { id: string };
}

/** A token subscription created over REST, with a new plan and customer of `adminId` unless given. */
export async function createTokenSubscription(app: TestApp, adminId: string, fields: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { valid_from: '2026-01-01T00:00:00Z', ...fields };
  if (body.plan_id === undefined && body.plan_external_reference === undefined) body.plan_id = (await createSubscriptionPlan(app, adminId)).id;
  if (body.customer_id === undefined && body.customer_external_reference === undefined) body.customer_id = (await createCustomer(app, adminId)).id;
  const response = await app.request('POST', '/main/v1/msp-token-subscription', { body });
  if (response.status !== 200) throw new Error(`token subscription factory: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any> & { id: string };
}
