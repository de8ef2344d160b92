// `npm start` on an empty database: a small realistic instance to click through.
import { credentialState, saveCredential, type CredentialState } from '../credentials/save-credential.service.ts';
import { Administration } from '../parties/administration.entity.ts';
import { createAdministration, createSeller } from '../parties/create-administration.service.ts';
import { InstanceSettings } from '../parties/instance-settings.entity.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { createBillingAddress } from '../parties/save-billing-address.service.ts';
import { createCustomer } from '../parties/save-customer.service.ts';
import { createMandate } from '../parties/create-direct-debit-mandate.service.ts';
import { changeMonetaryCredit } from '../msp/monetary-credit.service.ts';
import { createSubscriptionPlan } from '../msp/save-subscription-plan.service.ts';
import { createTokenSeries } from '../msp/save-token-series.service.ts';
import { createTokenSubscription } from '../msp/create-token-subscription.service.ts';
import { upsertTokenBrand } from '../msp/token-brand.service.ts';
import { createRatePlan, createRatePlanVersion } from '../pricing/rate-plan.service.ts';
import { createVatRate } from '../pricing/vat-rate.service.ts';
import { TokenLink } from '../msp/token-link.entity.ts';
import type { Em, Orm } from '../platform/orm.ts';
import { scopedEm } from '../access/admin-scope.ts';
import { ingestSession } from '../sessions/ingest-session.service.ts';
import { seedDemoBilling } from './demo-billing.ts';
import { processSessionBatch } from '../session-processing/process-sessions.service.ts';
import { createEvse } from '../cpo/save-evse.service.ts';
import { createEvseLocation } from '../cpo/save-evse-location.service.ts';
import { createRoamingAgreement } from '../roaming/save-roaming-agreement.service.ts';
import { createRoamingConnection } from '../roaming/save-roaming-connection.service.ts';

export const DEMO_CREDENTIAL = { publicId: 'demo', secret: 'demo-secret-change-me' };

/** The demo credential: missing, revoked, given another secret, or active with the published one. */
export async function demoCredentialState(orm: Orm): Promise<CredentialState> {
  return credentialState(scopedEm(orm), DEMO_CREDENTIAL.publicId, DEMO_CREDENTIAL.secret);
}

/** Whether the published demo credential works (exists, not revoked, secret unchanged). */
export async function demoCredentialActive(orm: Orm): Promise<boolean> {
  return await demoCredentialState(orm) === 'active';
}

async function seed(orm: Orm): Promise<void> {
  const em = scopedEm(orm);
  await em.transactional(async (tx) => {
    tx.create(InstanceSettings, { id: 1, name: 'Demo Charging Group', roamingEnabled: true });
    const dutch = await createSeller(tx, { name: 'Voltera Mobility B.V.', country: 'NL', externalReference: 'SELLER-NL' });
    const belgian = await createSeller(tx, { name: 'Voltera Belgium BV', country: 'BE', externalReference: 'SELLER-BE' });
    await createAdministration(tx, { id: 'nl-main', name: 'Voltera Netherlands', currency: 'EUR', country: 'NL', localeId: 'nl-NL', sellerId: dutch.id });
    await createAdministration(tx, { id: 'be-main', name: 'Voltera Belgium', currency: 'EUR', country: 'BE', localeId: 'nl-BE', sellerId: belgian.id });

    const customers = [
      { adminId: 'nl-main', externalReference: 'CUST-1001', name: 'Jan de Vries', country: 'NL', entityType: 'person', billingEmail: 'jan@example.nl', reimbursementVat: 'Exempt' },
      { adminId: 'nl-main', externalReference: 'CUST-1002', name: 'Groen Logistiek B.V.', country: 'NL', entityType: 'organisation', companyRegNum: '81234567', billingEmail: 'finance@groen.example', reimbursementVat: 'Applies', customFields: { fleet_size: 42, vat_number: 'NL859012345B01' } },
      { adminId: 'be-main', externalReference: 'CUST-2001', name: 'Lotte Peeters', country: 'BE', entityType: 'person', billingEmail: 'lotte@example.be' },
      { adminId: 'be-main', externalReference: 'CUST-2002', name: 'Antwerp Taxi NV', country: 'BE', entityType: 'organisation', companyRegNum: 'BE0412345678', reimbursementVat: 'Applies' },
    ] as const;
    const addresses = [
      { addressee: 'J. de Vries', addressLine1: 'Oudegracht 12', postalCode: '3511 AL', city: 'Utrecht', country: 'NL', billingPhone: '+31 30 123 4567' },
      { addressee: 'Groen Logistiek B.V., t.a.v. crediteuren', addressLine1: 'Havenweg 4', postalCode: '3011 AA', city: 'Rotterdam', country: 'NL' },
      { addressee: 'Lotte Peeters', addressLine1: 'Meir 1', postalCode: '2000', city: 'Antwerpen', country: 'BE' },
      { addressee: 'Antwerp Taxi NV', addressLine1: 'Noorderlaan 100', postalCode: '2030', city: 'Antwerpen', country: 'BE' },
    ];
    for (const [i, fields] of customers.entries()) {
      await createCustomer(tx, { ...fields });
      await createBillingAddress(tx, { customerExternalReference: fields.externalReference, externalReference: `ADDR-${fields.externalReference}`, ...addresses[i] });
    }
    await createMandate(tx, {
      customerExternalReference: 'CUST-1001', bankAccountName: 'J. de Vries', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A',
      mandateReference: 'MNDT-1001', validFrom: new Date('2026-01-01T00:00:00Z'), externalReference: 'DDM-1001',
    });
    await createMandate(tx, {
      customerExternalReference: 'CUST-2002', bankAccountName: 'Antwerp Taxi NV', iban: 'BE68539007547034',
      mandateReference: 'MNDT-2002', validFrom: new Date('2026-02-01T00:00:00Z'), externalReference: 'DDM-2002',
    });

    const since2025 = new Date('2025-01-01T00:00:00Z');
    for (const [country, vatKind, percentage] of [['NL', 'standard', '21'], ['NL', 'reduced', '9'], ['BE', 'standard', '21'], ['BE', 'reduced', '6'], ['DE', 'standard', '19']] as const) {
      await createVatRate(tx, { country, vatKind, percentage, validFrom: since2025 });
    }
    const ratePlan = await createRatePlan(tx, { name: 'Voltera Standard', currency: 'EUR', adminIds: ['nl-main', 'be-main'], externalReference: 'RATES-EUR-STANDARD' });
    await createRatePlanVersion(tx, { id: ratePlan.id }, {
      validFrom: since2025,
      definition: {
        rates: { energy: { price: '0.45', step_size: '0.001' }, flat: { price: '0.35' } },
        rules: [
          { name: 'DC fast charging', match: { current_type: 'DC', min_power_kw: '50' }, rates: { energy: { price: '0.69', step_size: '0.001' } } },
          { name: 'Night (23:00-07:00 local)', match: { time_of_day: { from: '23:00', until: '07:00' } }, rates: { energy: { price: '0.35', step_size: '0.001' } } },
          { name: 'Blocking fee after 3 hours', match: { min_duration_minutes: '180' }, rates: { time: { price: '0.05', step_size: '1' } } },
        ],
      },
    });

    await upsertTokenBrand(tx, 'VOLTERA', 'Voltera');
    const cards = await createTokenSeries(tx, { adminId: 'nl-main', name: 'Voltera NL cards', evcoPrefix: 'NL-VOL-C', formFactor: 'card', uidType: 'rfid_7byte', brandCode: 'VOLTERA', externalReference: 'SERIES-NL-CARDS' });
    const basic = await createSubscriptionPlan(tx, {
      adminId: 'nl-main', name: 'Voltera Basic', externalReference: 'PLAN-NL-BASIC', ratePlanId: ratePlan.id,
      recurringCosts: [{ description: 'Pasbijdrage', amount_excl_vat: '1.50', period: 'month' }],
    });
    const subscription = await createTokenSubscription(tx, {
      customerExternalReference: 'CUST-1001', planId: basic.id, validFrom: new Date('2026-01-01T00:00:00Z'),
      externalReference: 'SUB-1001', tokenSeriesId: cards.id,
    });
    await changeMonetaryCredit(tx, subscription.id, { amount: '10.00', description: 'Welcome credit' });
    tx.create(RoamingPartner, { name: 'Example Charge Network', country: 'DE', cpoIds: ['DEEXA'], mspIds: ['DEEXA'], externalReference: 'RP-DEEXA' });
    await tx.flush();
  });
  await seedDemoBilling(em, () => processSessionBatch(orm, 100));
  await demoRoaming(em);
  await demoSessions(em);
}

/**
 * A charger of ours where a driver of the roaming partner charges: the CPO session the pipeline
 * bills to the partner (its agreement where we are the CPO, at the amount the CPMS reports).
 */
async function demoRoaming(em: Em): Promise<void> {
  await em.transactional(async (tx) => {
    await createEvseLocation(tx, {
      adminId: 'nl-main', locationId: 'LOC-UTR-01', name: 'Voltera Utrecht Centraal', street: 'Stationsplein 1', postalCode: '3511 ED',
      city: 'Utrecht', country: 'NL', timeZone: 'Europe/Amsterdam',
    });
    await createEvse(tx, {
      adminId: 'nl-main', evseUid: 'EVSE-UTR-01', evseId: 'NL*VOL*E0001', locationId: 'LOC-UTR-01',
      connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }],
    });
    const partner = await tx.findOneOrFail(RoamingPartner, { externalReference: 'RP-DEEXA' });
    const connection = await createRoamingConnection(tx, { name: 'Example Charge Network (OCPI)', kind: 'locally_owned', partnerId: partner.id });
    await createRoamingAgreement(tx, { connectionId: connection.id, role: 'cpo', validFrom: new Date('2026-01-01T00:00:00Z'), externalReference: 'RA-DEEXA-CPO' });
  });
}

/** Sessions for the pipeline to work on at start: two priced (one paid by the welcome credit), one drop-out, and a roaming partner's driver at our charger. */
async function demoSessions(em: Em): Promise<void> {
  const link = await em.findOneOrFail(TokenLink, { subscription: { externalReference: 'SUB-1001' } }, { populate: ['token'] });
  const day = 86_400_000;
  const today = new Date(Math.floor(Date.now() / day) * day);
  const sessions = [
    { id: 'DEMO-1', evco: link.token.evcoId, start: new Date(today.getTime() - 3 * day + 9 * 3_600_000), minutes: 95, kwh: '18.432', power: 'ac_3phase' },
    { id: 'DEMO-2', evco: link.token.evcoId, start: new Date(today.getTime() - 2 * day - 1.5 * 3_600_000), minutes: 240, kwh: '31.207', power: 'ac_3phase' },
    { id: 'DEMO-3', evco: 'NL-XXX-C12345678', start: new Date(today.getTime() - day + 12 * 3_600_000), minutes: 35, kwh: '27.5', power: 'dc' },
  ];
  const start = new Date(today.getTime() - day + 17 * 3_600_000);
  const end = new Date(start.getTime() + 50 * 60_000);
  const roaming = {
    session_id: 'DEMO-CPO-1', evse_uid: 'EVSE-UTR-01', connector_id: '1', evco_id: 'DE-EXA-C12345678', start_date_time: start.toISOString(),
    end_date_time: end.toISOString(), total_energy_kwh: '14.2', time_zone: 'Europe/Amsterdam', total_roaming_amount_excl_vat: '7.10',
    address: { street: 'Stationsplein 1', city: 'Utrecht', country: 'NL' },
  };
  await ingestSession(em, {
    source: 'cpo_charge_session', sessionId: roaming.session_id, sender: roaming.evse_uid, cpoId: null, evcoId: roaming.evco_id, startAt: start, endAt: end,
    energyKwh: roaming.total_energy_kwh, idleSeconds: 0, timeZone: 'Europe/Amsterdam', country: 'NL', evseId: null, evseUid: roaming.evse_uid, payload: roaming,
  }, { kick: false });
  for (const s of sessions) {
    const end = new Date(s.start.getTime() + s.minutes * 60_000);
    const payload = {
      session_id: s.id, cpo_id: 'NL*VOL', evco_id: s.evco, start_date_time: s.start.toISOString(), end_date_time: end.toISOString(),
      total_energy_kwh: s.kwh, time_zone: 'Europe/Amsterdam', address: { street: 'Oudegracht 1', city: 'Utrecht', country: 'NL' },
      evse_id: 'NL*VOL*E0001', power_type: s.power,
    };
    await ingestSession(em, {
      source: 'charge_session', sessionId: s.id, sender: 'NL*VOL', cpoId: 'NL*VOL', evcoId: s.evco, startAt: s.start, endAt: end,
      energyKwh: s.kwh, idleSeconds: 0, timeZone: 'Europe/Amsterdam', country: 'NL', evseId: 'NL*VOL*E0001', evseUid: null, payload,
    }, { kick: false });
  }
}

/**
 * The demo instance on a database without administrations, and with it the demo credential; a
 * database with administrations (its own, or the demo's at a restart) gets neither, and a demo
 * credential revoked or given another secret stays so.
 */
export async function ensureDemoInstance(orm: Orm, log: (line: string) => void): Promise<void> {
  const em = scopedEm(orm);
  if ((await em.count(Administration, {})) === 0) {
    await seed(orm);
    log('created the demo instance (administrations nl-main and be-main, customers, VAT rates, a rate plan, a plan, a subscription with a card, three charge sessions, a charger of ours with a driver of a roaming partner, billing: last month finalized, this month open)');
    // An earlier one (revoked, or given another secret) is the operator's: kept as it is.
    if (await demoCredentialState(orm) === 'missing') await saveCredential(scopedEm(orm), { ...DEMO_CREDENTIAL, role: 'admin' });
  }
  // The published secret only while it still works; a secret someone gave it is never printed.
  const { publicId, secret } = DEMO_CREDENTIAL;
  const state = await demoCredentialState(orm);
  const said = state === 'active' ? `${publicId}:${secret}`
    : state === 'changed' ? `${publicId}, its secret was changed (no longer the published one)`
    : state === 'revoked' ? `${publicId}, revoked` : 'none: the database held administrations of its own, so no demo instance was created';
  log(`demo credential: ${said} (start with SVC_DEMO=0 to skip demo data)`);
}
