import type { TestApp } from './app.ts';
import { scopedEm } from '../../src/platform/orm.ts';
import { Administration } from '../../src/parties/administration.entity.ts';
import { Seller } from '../../src/parties/seller.entity.ts';

let sequence = 0;
const next = () => ++sequence;

/** An administration (and its seller), created directly: there is no REST endpoint for it. */
export async function createAdministration(app: TestApp, overrides: Partial<{ id: string; name: string; currency: string; country: string; localeId: string }> = {}) {
  const em = scopedEm(app.orm);
  const n = next();
  const seller = em.create(Seller, { name: `Seller ${n}`, country: overrides.country ?? 'NL' } as never);
  const admin = em.create(Administration, {
    id: overrides.id ?? `adm-${process.pid}-${n}`,
    name: overrides.name ?? `Administration ${n}`,
    currency: overrides.currency ?? 'EUR',
    country: overrides.country ?? 'NL',
    localeId: overrides.localeId ?? 'nl-NL',
    seller,
  } as never);
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
