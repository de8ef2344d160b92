// Two administrations with a record of every kind each (the isolation matrix's world,
// test/rest/rails/isolation-matrix.test.ts), plus the instance-wide setup they share. Every id
// a write operation can name is here, so the matrix can aim each operation at the other
// administration's records.
import type { TestApp } from './app.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { OcpiPeer } from '../../src/ocpi/ocpi-peer.entity.ts';
import { OcpiSession } from '../../src/ocpi/ocpi-session.entity.ts';
import { configureBilling, createSeries } from './billing-factories.ts';
import { cpoSessionBody, createEvse, createLocatedEvse, createLocation, createReimbursementPlan, reimburseEvse, settledCpoSession } from './cpo-factories.ts';
import { createAdministration, createEndUser, insertToken } from './factories.ts';
import { roamingSetup } from './roaming-factories.ts';
import { createRatePlan, ensureVatRate, pricedSubscription, processed, SIMPLE_RATES, sessionBody, submitSession } from './session-factories.ts';

async function ok(app: TestApp, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`world: ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface Administration {
  adminId: string;
  label: string;
  customerId: string;
  customerRef: string;
  addressId: string;
  addressRef: string;
  mandateId: string;
  endUserId: string;
  siteId: string;
  ratePlanId: string;
  planId: string;
  subscriptionId: string;
  evcoId: string;
  spareEvcoId: string;
  tokenLinkId: string;
  tokenSeriesId: string;
  locationId: string;
  evseUid: string;
  evseId: string;
  reimbursementPlanId: string;
  arrangementId: string;
  reimbursementLinkId: string;
  cpoPlanId: string;
  cpoSubscriptionId: string;
  cpoLinkId: string;
  seriesId: string;
  seriesRef: string;
  categoryCode: string;
  customItemRef: string;
  boxId: string;
  reviewSetId: string;
  deliveryId: string;
  mspSessionId: string;
  /** The session_id of that session (its identity with cpo_id NL*ABC). */
  mspSessionRef: string;
  mspDropoutCaseId: string;
  cpoDropoutCaseId: string;
  webhookId: string;
  ocpiSessionId: string;
}

export interface World {
  victim: Administration;
  mine: Administration;
  partnerId: string;
  connectionId: string;
  agreementId: string;
  vatRateId: string;
  brandCode: string;
}

async function administration(app: TestApp, label: string, connectionId: string): Promise<Administration> {
  const { id: adminId } = await createAdministration(app, { id: `iso-${label}-${process.pid}` });
  await configureBilling(app, adminId);
  const series = await createSeries(app, adminId);
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }], [adminId]);
  const priced = await pricedSubscription(app, adminId, { ratePlanId, credit: '5' });
  const customer = await ok(app, 'GET', `/customer/${priced.customerId}`);
  const address = await ok(app, 'POST', `/billing-address/ext_ref.addr-${label}`, { party_id: priced.customerId, city: 'Utrecht' });
  const mandate = await ok(app, 'POST', `/billing-direct-debit-mandate/ext_ref.mandate-${label}`, {
    customer_id: priced.customerId, bank_account_name: label, iban: 'NL91ABNA0417164300',
  });
  const endUser = await createEndUser(app, adminId, { email: `${label}@example.com` });
  await ok(app, 'POST', `/end-user/${endUser.id}/authorization-customer/${priced.customerId}`, {});
  await ok(app, 'POST', `/end-user/${endUser.id}/authorization-msp-token-subscription/${priced.subscriptionId}`, {});
  const tokenSeries = await ok(app, 'POST', '/msp-token-series', { admin_id: adminId, name: `Series ${label}`, evco_prefix: `NLI${label.toUpperCase()}C` });
  const spare = await insertToken(app, adminId);
  const linked = await ok(app, 'POST', '/msp-token-link', { subscription_id: priced.subscriptionId, evco_id: spare.evcoId, valid_from: '2026-06-01T00:00:00Z' });

  const location = await createLocation(app, adminId);
  const evse = await createEvse(app, adminId, { location_id: location.location_id });
  const dropoutEvse = await createLocatedEvse(app, adminId, { dropout_all_chargesessions: true });
  const reimbursementPlan = await createReimbursementPlan(app, adminId, {}, { energy: '0.20' });
  const arrangement = await reimburseEvse(app, adminId, priced.customerId, reimbursementPlan.id, evse.evse_uid);
  await ok(app, 'PUT', `/cpo-reimbursement-arrangement/${arrangement.id}/calculation-input/2026-01-01/energy`, { value: '0.25' });
  const reimbursementLink = (await ok(app, 'GET', `/cpo-reimbursement-link?arrangement_id=${arrangement.id}`)).items[0];
  const cpoPlan = await ok(app, 'POST', '/cpo-subscription-plan', { admin_id: adminId, name: `CPO plan ${label}` });
  await ok(app, 'POST', `/cpo-subscription-plan/${cpoPlan.id}/2026-01-01`, {
    recurring_costs: [{ description: 'Fee', amount_excl_vat: '10', period: 'month', per: 'subscription' }],
  });
  const cpoSubscription = await ok(app, 'POST', '/cpo-subscription', { customer_id: priced.customerId, plan_id: cpoPlan.id, valid_from: '2026-01-01T00:00:00Z' });
  const cpoLink = await ok(app, 'POST', '/cpo-subscription-evse-link', { subscription_id: cpoSubscription.id, evse_uid: evse.evse_uid });

  const categoryCode = `CAT${label.toUpperCase()}`;
  await ok(app, 'POST', '/billing-product-category', { admin_id: adminId, code: categoryCode, description: 'Category' });
  await ok(app, 'POST', `/administration/${adminId}/billing-exchange-rate`, { currency: 'USD', date: '2026-11-01', rate: '1.1' });
  const customItemRef = `CI-${label}-${process.pid}`;
  const item = await ok(app, 'POST', `/billing-custom-item/${customItemRef}`, {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: priced.customerId, admin_id: adminId, description: 'Service',
    quantity: '1', unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
  });
  const boxId = item.box_id ?? item.items?.[0]?.box_id;
  const box = await ok(app, 'GET', `/billing-box/${boxId}`);
  const delivery = await ok(app, 'POST', '/billing-box-delivery-state', { box_id: boxId, channel: 'email' });

  const mspSession = await processed(app, (await submitSession(app, sessionBody(priced.evcoId))).id);
  // No VAT rate for its country: a drop-out of this administration (it resolved the subscription).
  const dropped = await processed(app, (await submitSession(app, sessionBody(priced.evcoId, {
    address: { street: 'Hauptstrasse 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  }))).id);
  const cpoDropped = await settledCpoSession(app, (await submitSession(app, cpoSessionBody(dropoutEvse.evse_uid), '/main/v1/cpo-charge-session')).id);

  const webhook = await ok(app, 'POST', '/webhook-subscription', {
    url: 'http://127.0.0.1:9/hook', kinds: ['customer'], secret: 'whsec-isolation-0123456789', admin_ids: [adminId],
  });

  const em = scopedEm(app.orm);
  const ocpiSessionId = `OCPI-${label}-${process.pid}`;
  em.create(OcpiSession, {
    roamingConnectionId: connectionId, countryCode: 'NL', partyId: 'ABC', sessionId: ocpiSessionId, status: 'ACTIVE', kwh: '1',
    evseUid: evse.evse_uid, evcoId: priced.evcoId, body: {}, lastUpdated: new Date(), chargeSessionId: null, admin: adminId,
  } as any);
  await em.flush();

  const ids: Administration = {
    adminId, label, customerId: priced.customerId, customerRef: customer.external_reference, addressId: address.id,
    addressRef: `addr-${label}`, mandateId: mandate.id, endUserId: endUser.id, siteId: endUser.site_id, ratePlanId, planId: priced.planId,
    subscriptionId: priced.subscriptionId, evcoId: priced.evcoId, spareEvcoId: spare.evcoId, tokenLinkId: linked.id,
    tokenSeriesId: tokenSeries.id, locationId: location.location_id, evseUid: evse.evse_uid, evseId: evse.evse_id,
    reimbursementPlanId: reimbursementPlan.id, arrangementId: arrangement.id, reimbursementLinkId: reimbursementLink.id,
    cpoPlanId: cpoPlan.id, cpoSubscriptionId: cpoSubscription.id, cpoLinkId: cpoLink.id, seriesId: series.id,
    seriesRef: series.external_reference, categoryCode, customItemRef, boxId, reviewSetId: box.billing_reviewset_id, deliveryId: delivery.id,
    mspSessionId: mspSession.id, mspSessionRef: mspSession.session_id, mspDropoutCaseId: dropped.dropout_case_id, cpoDropoutCaseId: cpoDropped.dropout_case_id,
    webhookId: webhook.id, ocpiSessionId,
  };
  const missing = Object.entries(ids).filter(([, value]) => typeof value !== 'string' || value === '').map(([key]) => key);
  if (missing.length) throw new Error(`world: no ${missing.join(', ')} for ${label}`);
  return ids;
}

/** The victim's and the caller's administrations (the worker must run: sessions are processed). */
export async function buildWorld(app: TestApp): Promise<World> {
  const roaming = await roamingSetup(app);
  const em = scopedEm(app.orm);
  em.create(OcpiPeer, {
    roamingConnectionId: roaming.connection.id, status: 'registered', ourRole: 'EMSP', versionsUrl: 'http://127.0.0.1:9/versions',
    tokenSend: 'isolation-token-send', tokenAccept: `isolation-token-accept-${process.pid}`, version: '2.2.1',
    endpoints: [{ identifier: 'commands', role: 'RECEIVER', url: 'http://127.0.0.1:9/commands' }],
    roles: [{ role: 'CPO', country_code: 'NL', party_id: 'ABC', business_details: { name: 'CPO' } }],
  } as any);
  await em.flush();
  const brandCode = 'ISOBRAND';
  await ok(app, 'POST', `/msp-token-brand/${brandCode}`, { name: 'Isolation brand' });
  await ensureVatRate(app);
  const [victim, mine] = await Promise.all([administration(app, 'victim', roaming.connection.id), administration(app, 'mine', roaming.connection.id)]);
  const vat = (await ok(app, 'GET', '/vat-rate?country=NL')).items[0];
  return {
    victim, mine, partnerId: roaming.partner.id, connectionId: roaming.connection.id, agreementId: roaming.agreement.id,
    vatRateId: vat.id, brandCode,
  };
}
