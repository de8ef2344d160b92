// The isolation matrix: EVERY write operation of the OpenAPI document (POST, PUT, DELETE) and EVERY
// GraphQL mutation of the schema, called by
//   1. an admin credential limited to another administration ("mine"), aimed at the victim's records
//      (their ids in the path, in the body, or both),
//   2. a readonly credential,
//   3. an app credential (of mine's end-user site),
// must either act only inside the caller's scope or be refused, with exactly the answer the contract
// gives (400 not_found for a record the caller cannot see, 400 duplicate for a value taken elsewhere,
// 403 forbidden for a role or for instance-wide data), and leave every row outside the caller's own
// administration as it was (test/helpers/db-fingerprint.ts fingerprintOutside: the victim's rows and
// the instance-wide tables, one statement). A control pass then sends each refused-as-not_found
// request with a credential without a limit: it must not be not_found there, so the ids aimed at
// exist and the refusal above was about the caller's scope, not a typo in this file.
// A new operation or mutation without a case here fails the first tests: add its cases.
import pg from 'pg';
import test, { type ExecutionContext } from 'ava';
import { startTestApp, type Auth, type Response, type TestApp } from '../../helpers/app.ts';
import { changedTables, fingerprintOutside } from '../../helpers/db-fingerprint.ts';
import { buildWorld, type World } from '../../helpers/isolation-world.ts';
import { cpoSessionBody } from '../../helpers/cpo-factories.ts';
import { partySuffix } from '../../helpers/roaming-factories.ts';
import { sessionBody } from '../../helpers/session-factories.ts';
import { startWorker } from '../../../src/worker/worker.ts';
import { APP_MUTATIONS } from '../../../schema/permissions.ts';

type Expect = 'not_found' | 'forbidden' | 'duplicate' | 'ok';

interface Case {
  path: string;
  body?: unknown;
  /** A raw upload instead of JSON. */
  raw?: { bytes: Buffer; type: string };
  expect: Expect;
  /** The JSONPath the refusal names (absent: none, e.g. a record named in the path). */
  param?: string;
  /** Why the control pass cannot show this request reaching an existing record (absent: it can). */
  noControl?: string;
  /** A batch (answered 200): the refusal of each item, in order. */
  items?: { code: string; param: string }[];
}

let app: TestApp;
let db: pg.Client;
let w: World;
let limited: Auth;
let readonly: Auth;
let appCredential: Auth;
let unlimited: Auth;
let openApi: { paths: Record<string, Record<string, unknown>> };

/** Waits until no graphile-worker job is running or due (a few polls in a row). */
async function quiet(client: pg.Client): Promise<void> {
  const until = Date.now() + 20_000;
  for (let calm = 0; calm < 3;) {
    const { rows: [{ busy }] } = await client.query<{ busy: number }>(`select count(*)::int as busy from graphile_worker.jobs
      where locked_at is not null or (run_at <= now() and attempts < max_attempts)`);
    calm = busy === 0 ? calm + 1 : 0;
    if (Date.now() > until) throw new Error(`${busy} jobs still due after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let n = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${++n}`;
const PDF = { bytes: Buffer.from('%PDF-1.4\n%isolation\n'), type: 'application/pdf' };
const LOGO = { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'), type: 'image/svg+xml' };

test.before(async () => {
  app = await startTestApp();
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  w = await buildWorld(app);
  // The world's own follow-up work first (billing of its sessions; the period start a worker adds
  // when it starts bills the fees of the world's subscriptions); then deterministic: the jobs of the
  // matrix's requests stay queued until the test that runs them and looks again.
  await quiet(db);
  await app.stopWorker();
  await drainJobs();
  limited = await app.credential({ role: 'admin', adminIds: [w.mine.adminId] });
  readonly = await app.credential({ role: 'readonly' });
  appCredential = await app.credential({ role: 'app', siteId: w.mine.siteId });
  unlimited = await app.credential({ role: 'admin' });
  openApi = (await app.request('GET', '/main/v1/openapi.json')).body;
});
test.after.always(async () => {
  await db?.end();
  await app?.close();
});

/** `METHOD /path/{param}` of every write operation in the OpenAPI document. */
function writeOperations(): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(openApi.paths)) {
    for (const method of Object.keys(item)) {
      if (['post', 'put', 'delete'].includes(method)) keys.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return keys.sort();
}

const CROSS = 'a record of another administration than the end user\'s is not_found for every credential';
const CUSTOMER_OF_ADMIN = 'a custom item bills a customer of the administration it names: another\'s is not_found for every credential';
const customerBody = () => ({ name: 'Taken over', country: 'NL' });
const customItemInput = (adminId: string, partyId: string) => ({
  timeZone: 'Europe/Amsterdam', date: '2026-11-03', partyId, adminId, description: 'Taken over',
  quantity: '1', unit: 'pcs', unitPriceExclVat: '1.00', vatKind: 'standard',
});
const customItem = (adminId: string, partyId: string) => ({
  time_zone: 'Europe/Amsterdam', date: '2026-11-03', party_id: partyId, admin_id: adminId, description: 'Taken over',
  quantity: '1', unit: 'pcs', unit_price_excl_vat: '1.00', vat_kind: 'standard',
});

/**
 * The requests of the limited credential (limited to mine), per operation. `V` is the victim, `M` the
 * caller's own administration: a body mixing both names one of the victim's records beside the
 * caller's own, so the refusal must come from the victim's record.
 */
function limitedCases(): Record<string, Case[]> {
  const V = w.victim;
  const M = w.mine;
  const nf = (path: string, body?: unknown, param?: string): Case => ({ path, body, expect: 'not_found', param });
  const forbidden = (path: string, body?: unknown): Case => ({ path, body, expect: 'forbidden' });
  /** A subscription-like resource: merge-update, replace and the single-field paths of `base` ({id}: the victim's). */
  const subResource = (base: string, id: string, fields: Record<string, unknown>): Record<string, Case[]> => {
    const at = base.replace('{id}', id);
    return {
      [`POST ${base}`]: [nf(at, fields)],
      [`PUT ${base}`]: [nf(at, fields)],
      [`PUT ${base}/valid-from`]: [nf(`${at}/valid-from`, { valid_from: '2026-02-01T00:00:00Z' })],
      [`PUT ${base}/valid-until`]: [nf(`${at}/valid-until`, { valid_until: '2027-01-01T00:00:00Z' })],
      [`DELETE ${base}/valid-until`]: [nf(`${at}/valid-until`)],
      [`PUT ${base}/defunct`]: [nf(`${at}/defunct`, {})],
    };
  };
  const cases: Record<string, Case[]> = {
    'POST /instance': [forbidden('/instance', { roaming_enabled: true })],

    'POST /customer': [nf('/customer', { ...customerBody(), admin_id: V.adminId }, '$.admin_id')],
    'POST /customer/{id}': [
      nf(`/customer/${V.customerId}`, { name: 'Taken over' }),
      { path: `/customer/ext_ref.${V.customerRef}`, body: { ...customerBody(), admin_id: M.adminId }, expect: 'duplicate', param: '$.external_reference' },
      nf(`/customer/${M.customerId}`, { admin_id: V.adminId }, '$.admin_id'),
    ],
    'PUT /customer/{id}': [
      nf(`/customer/${V.customerId}`, customerBody()),
      { path: `/customer/ext_ref.${V.customerRef}`, body: { ...customerBody(), admin_id: M.adminId }, expect: 'duplicate', param: '$.external_reference' },
    ],
    'POST /customer/{id}/block-charge-auth-requests': [nf(`/customer/${V.customerId}/block-charge-auth-requests`)],
    'POST /customer/{id}/unblock-charge-auth-requests': [nf(`/customer/${V.customerId}/unblock-charge-auth-requests`)],

    'POST /billing-address/{id}': [
      nf(`/billing-address/${V.addressId}`, { city: 'Elsewhere' }),
      nf(`/billing-address/ext_ref.${fresh('addr')}`, { party_id: V.customerId, city: 'Elsewhere' }, '$.party_id'),
      { path: `/billing-address/ext_ref.${V.addressRef}`, body: { party_id: M.customerId, city: 'Elsewhere' }, expect: 'duplicate', param: '$.external_reference' },
    ],
    'PUT /billing-address/{id}': [nf(`/billing-address/${V.addressId}`, { party_id: V.customerId, city: 'Elsewhere' })],

    'POST /billing-direct-debit-mandate': [
      nf('/billing-direct-debit-mandate', { customer_id: V.customerId, bank_account_name: 'X', iban: 'NL91ABNA0417164300' }, '$.customer_id'),
    ],
    'POST /billing-direct-debit-mandate/{id}': [nf(`/billing-direct-debit-mandate/${V.mandateId}`, { bank_account_name: 'Taken over' })],
    'PUT /billing-direct-debit-mandate/{id}': [
      nf(`/billing-direct-debit-mandate/${V.mandateId}`, { customer_id: V.customerId, bank_account_name: 'X', iban: 'NL91ABNA0417164300' }),
    ],
    'PUT /billing-direct-debit-mandate/{id}/defunct': [nf(`/billing-direct-debit-mandate/${V.mandateId}/defunct`, {})],

    // Instance-wide (decisions.md "Access to instance-wide data").
    'POST /roaming-partner': [forbidden('/roaming-partner', { name: 'Partner', country: 'NL', cpo_ids: [`NL*${partySuffix()}`] })],
    'POST /roaming-partner/{id}': [forbidden(`/roaming-partner/${w.partnerId}`, { name: 'Renamed' })],
    'POST /roaming-connection': [forbidden('/roaming-connection', { name: 'Connection', kind: 'locally_owned', partner_id: w.partnerId })],
    'POST /roaming-connection/{id}': [forbidden(`/roaming-connection/${w.connectionId}`, { notes: 'changed' })],
    'POST /roaming-agreement': [forbidden('/roaming-agreement', {
      connection_id: w.connectionId, role: 'cpo', valid_from: '2024-01-01T00:00:00Z', valid_until: '2024-06-01T00:00:00Z',
    })],
    'POST /roaming-agreement/{id}': [forbidden(`/roaming-agreement/${w.agreementId}`, { valid_until: '2030-01-01T00:00:00Z' })],
    'POST /roaming-connection/{id}/ocpi/register': [forbidden(`/roaming-connection/${w.connectionId}/ocpi/register`, {})],
    'POST /vat-rate': [forbidden('/vat-rate', { country: 'LU', vat_kind: 'standard', percentage: '17', valid_from: '2020-01-01T00:00:00Z' })],
    'POST /vat-rate/{id}': [forbidden(`/vat-rate/${w.vatRateId}`, { percentage: '22' })],
    'POST /msp-token-brand/{code}': [forbidden(`/msp-token-brand/${w.brandCode}`, { name: 'Renamed' })],

    'POST /msp-roaming-command': [
      nf('/msp-roaming-command', { type: 'stop_session', roaming_connection_id: w.connectionId, session_id: V.ocpiSessionId }, '$.session_id'),
      nf('/msp-roaming-command', {
        type: 'start_session', roaming_connection_id: w.connectionId, location_id: 'LOC', connector_id: '1', evco_id: V.evcoId,
      }, '$.evco_id'),
    ],
    'POST /msp-roaming-command/start-session': [nf('/msp-roaming-command/start-session', {
      roaming_connection_id: w.connectionId, location_id: 'LOC', connector_id: '1', evco_id: V.evcoId,
    }, '$.evco_id')],
    'POST /msp-roaming-command/stop-session': [
      nf('/msp-roaming-command/stop-session', { roaming_connection_id: w.connectionId, session_id: V.ocpiSessionId }, '$.session_id'),
    ],

    'POST /end-user': [nf('/end-user', { admin_id: V.adminId, username: fresh('user') }, '$.admin_id')],
    'POST /end-user/{id}': [
      nf(`/end-user/${V.endUserId}`, { name: 'Taken over' }),
      nf(`/end-user/${M.endUserId}`, { site_id: V.siteId }, '$.site_id'),
    ],
    'PUT /end-user/{id}': [nf(`/end-user/${V.endUserId}`, { username: fresh('user') })],
    // An authorization names the end user (path) and a customer or subscription of the end user's administration.
    'PUT /end-user/{id}/authorization-customer': [
      nf(`/end-user/${V.endUserId}/authorization-customer`, { items: [{ customer_id: V.customerId }] }),
      { ...nf(`/end-user/${M.endUserId}/authorization-customer`, { items: [{ customer_id: V.customerId }] }, '$.items[0].customer_id'), noControl: CROSS },
    ],
    'POST /end-user/{id}/authorization-customer/{customer_id}': [
      nf(`/end-user/${V.endUserId}/authorization-customer/${V.customerId}`, {}),
      { ...nf(`/end-user/${M.endUserId}/authorization-customer/${V.customerId}`, {}), noControl: CROSS },
    ],
    'PUT /end-user/{id}/authorization-msp-token-subscription': [
      nf(`/end-user/${V.endUserId}/authorization-msp-token-subscription`, { items: [{ subscription_id: V.subscriptionId }] }),
      { ...nf(`/end-user/${M.endUserId}/authorization-msp-token-subscription`, { items: [{ subscription_id: V.subscriptionId }] }, '$.items[0].subscription_id'),
        noControl: CROSS },
    ],
    'POST /end-user/{id}/authorization-msp-token-subscription/{subscription_id}': [
      nf(`/end-user/${V.endUserId}/authorization-msp-token-subscription/${V.subscriptionId}`, {}),
      { ...nf(`/end-user/${M.endUserId}/authorization-msp-token-subscription/${V.subscriptionId}`, {}), noControl: CROSS },
    ],
    'POST /end-user-site': [nf('/end-user-site', { admin_id: V.adminId, name: 'Site' }, '$.admin_id')],
    'POST /enduser/register': [forbidden('/enduser/register', { username: fresh('user') })],

    'POST /msp-token/{evco_id}': [nf(`/msp-token/${V.evcoId}`, { vehicle_vin: 'WVWZZZ1JZXW000001' })],
    'PUT /msp-token/{evco_id}': [nf(`/msp-token/${V.evcoId}`, { vehicle_vin: 'WVWZZZ1JZXW000001' })],
    'POST /msp-token/{evco_id}/block-charge-auth-requests': [nf(`/msp-token/${V.evcoId}/block-charge-auth-requests`)],
    'POST /msp-token/{evco_id}/unblock-charge-auth-requests': [nf(`/msp-token/${V.evcoId}/unblock-charge-auth-requests`)],
    // A pure check of the id's format: reads and writes nothing.
    'POST /msp-token-evco-id/validate': [{ path: '/msp-token-evco-id/validate', body: { evco_id: V.evcoId }, expect: 'ok', noControl: 'reads nothing' }],
    'POST /msp-token-series': [nf('/msp-token-series', { admin_id: V.adminId, name: 'Series', evco_prefix: 'NLXYZC' }, '$.admin_id')],
    'POST /msp-token-subscription/add-virtual-token': [
      nf('/msp-token-subscription/add-virtual-token', { subscription_id: V.subscriptionId, token_series_id: M.tokenSeriesId }, '$.subscription_id'),
      nf('/msp-token-subscription/add-virtual-token', { subscription_id: M.subscriptionId, token_series_id: V.tokenSeriesId }, '$.token_series_id'),
    ],
    'POST /msp-token-subscription/{id}/token-fulfilment': [
      nf(`/msp-token-subscription/${V.subscriptionId}/token-fulfilment`, { form_factor: 'card', token_series_id: M.tokenSeriesId }),
      nf(`/msp-token-subscription/${M.subscriptionId}/token-fulfilment`, { form_factor: 'card', token_series_id: V.tokenSeriesId }, '$.token_series_id'),
    ],
    'POST /msp-token-subscription/{id}/plug-and-charge-vehicle': [
      nf(`/msp-token-subscription/${V.subscriptionId}/plug-and-charge-vehicle`, { vehicle_vin: 'WVWZZZ1JZXW000001', token_series_id: M.tokenSeriesId }),
      nf(`/msp-token-subscription/${M.subscriptionId}/plug-and-charge-vehicle`, { vehicle_vin: 'WVWZZZ1JZXW000002', token_series_id: V.tokenSeriesId },
        '$.token_series_id'),
    ],
    'POST /msp-token-fulfilment/activate-token': [nf('/msp-token-fulfilment/activate-token', { evco_id: V.evcoId }, '$.evco_id')],
    'POST /msp-token-subscription/{id}/monetary-credit': [nf(`/msp-token-subscription/${V.subscriptionId}/monetary-credit`, { amount: '1' })],
    'PUT /msp-token-subscription/{id}/monetary-credit': [nf(`/msp-token-subscription/${V.subscriptionId}/monetary-credit`, { amount: '1' })],
    'POST /msp-token-subscription/{id}/plan-or-customer-correction': [
      nf(`/msp-token-subscription/${V.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-06-01T00:00:00Z', new_plan_id: M.planId }),
      nf(`/msp-token-subscription/${M.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-06-01T00:00:00Z', new_plan_id: V.planId }, '$.new_plan_id'),
      nf(`/msp-token-subscription/${M.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-06-01T00:00:00Z', new_customer_id: V.customerId },
        '$.new_customer_id'),
    ],
    'PUT /msp-token-subscription/{id}/plan-or-customer-correction': [
      nf(`/msp-token-subscription/${V.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-06-01T00:00:00Z', new_plan_id: M.planId }),
      nf(`/msp-token-subscription/${M.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-06-01T00:00:00Z', new_plan_id: V.planId }, '$.new_plan_id'),
    ],
    'POST /msp-token-subscription': [
      nf('/msp-token-subscription', { customer_id: V.customerId, plan_id: M.planId, valid_from: '2026-01-01T00:00:00Z' }, '$.customer_id'),
      nf('/msp-token-subscription', { customer_id: M.customerId, plan_id: V.planId, valid_from: '2026-01-01T00:00:00Z' }, '$.plan_id'),
      { ...nf('/msp-token-subscription', {
        customer_id: M.customerId, plan_id: M.planId, valid_from: '2026-01-01T00:00:00Z', token_series_id: V.tokenSeriesId,
      }, '$.token_series_id'), noControl: 'a series of another administration than the subscription\'s is not_found for every credential' },
    ],

    'POST /msp-token-link': [
      nf('/msp-token-link', { subscription_id: V.subscriptionId, evco_id: M.spareEvcoId, valid_from: '2027-01-01T00:00:00Z' }, '$.subscription_id'),
      nf('/msp-token-link', { subscription_id: M.subscriptionId, evco_id: V.spareEvcoId, valid_from: '2027-01-01T00:00:00Z' }, '$.evco_id'),
    ],
    'PUT /msp-token-link/{id}/valid-from': [nf(`/msp-token-link/${V.tokenLinkId}/valid-from`, { valid_from: '2026-07-01T00:00:00Z' })],
    'DELETE /msp-token-link/{id}/valid-from': [nf(`/msp-token-link/${V.tokenLinkId}/valid-from`)],
    'PUT /msp-token-link/{id}/valid-until': [nf(`/msp-token-link/${V.tokenLinkId}/valid-until`, { valid_until: '2027-01-01T00:00:00Z' })],
    'DELETE /msp-token-link/{id}/valid-until': [nf(`/msp-token-link/${V.tokenLinkId}/valid-until`)],
    'PUT /msp-token-link/{id}/defunct': [nf(`/msp-token-link/${V.tokenLinkId}/defunct`, {})],
    'POST /msp-token-link/{id}': [nf(`/msp-token-link/${V.tokenLinkId}`, { valid_until: '2027-01-01T00:00:00Z' })],
    'PUT /msp-token-link/{id}': [nf(`/msp-token-link/${V.tokenLinkId}`, { valid_from: '2026-06-01T00:00:00Z' })],

    'POST /msp-token-subscription-plan': [
      nf('/msp-token-subscription-plan', { admin_id: V.adminId, name: 'Plan' }, '$.admin_id'),
      nf('/msp-token-subscription-plan', { admin_id: M.adminId, name: 'Plan', rate_plan_id: V.ratePlanId }, '$.rate_plan_id'),
    ],
    'POST /msp-token-subscription-plan/{id}': [
      nf(`/msp-token-subscription-plan/${V.planId}`, { name: 'Taken over' }),
      nf(`/msp-token-subscription-plan/${M.planId}`, { rate_plan_id: V.ratePlanId }, '$.rate_plan_id'),
    ],

    'POST /rate-plan': [nf('/rate-plan', { name: 'Rates', currency: 'EUR', admin_ids: [V.adminId] }, '$.admin_ids[0]')],
    'POST /rate-plan/{id}': [nf(`/rate-plan/${V.ratePlanId}`, { name: 'Taken over' })],
    'POST /rate-plan/{id}/version': [
      nf(`/rate-plan/${V.ratePlanId}/version`, { valid_from: '2026-06-01T00:00:00Z', definition: { rates: { energy: { price: '9.99' } }, rules: [] } }),
    ],

    // A session names its token (MSP) or EVSE (CPO): one of the victim's would become the victim's session.
    'POST /charge-session': [
      nf('/charge-session', sessionBody(V.evcoId), '$.evco_id'),
      // The identity (cpo_id and session_id) of the victim's session: taken, neither answered nor resubmitted.
      { path: '/charge-session', body: sessionBody(M.evcoId, { session_id: V.mspSessionRef }), expect: 'duplicate', param: '$.session_id' },
      // The caller's own token at the victim's EVSE: the caller's session (what processing does with it: the last test).
      { path: '/charge-session', body: sessionBody(M.evcoId, { evse_id: V.evseId }), expect: 'ok', noControl: 'succeeds for the caller already' },
    ],
    'POST /cpo-charge-session': [nf('/cpo-charge-session', cpoSessionBody(V.evseUid), '$.evse_uid')],
    'POST /charge-session-batch': [{
      path: '/charge-session-batch', body: [sessionBody(V.evcoId), sessionBody(M.evcoId, { session_id: V.mspSessionRef })], expect: 'ok',
      items: [{ code: 'not_found', param: '$[0].evco_id' }, { code: 'duplicate', param: '$[1].session_id' }],
      noControl: 'a batch answers 200; each session\'s refusal is its result (items)',
    }],
    'POST /msp-charge-session/{id}/reprice': [nf(`/msp-charge-session/${V.mspSessionId}/reprice`, {})],
    'POST /msp-dropout-case/{id}/reprocess': [nf(`/msp-dropout-case/${V.mspDropoutCaseId}/reprocess`, { instruction: 'retry' })],
    'POST /cpo-dropout-case/{id}/reprocess': [nf(`/cpo-dropout-case/${V.cpoDropoutCaseId}/reprocess`, { instruction: 'retry' })],

    'POST /cpo-evse': [
      nf('/cpo-evse', { admin_id: V.adminId, evse_uid: fresh('EVSE') }, '$.admin_id'),
      { path: '/cpo-evse', body: { admin_id: M.adminId, evse_uid: V.evseUid }, expect: 'duplicate', param: '$.evse_uid' },
      { path: '/cpo-evse', body: { admin_id: M.adminId, evse_uid: fresh('EVSE'), evse_id: V.evseId }, expect: 'duplicate', param: '$.evse_id' },
      nf('/cpo-evse', { admin_id: M.adminId, evse_uid: fresh('EVSE'), location_id: V.locationId }, '$.location_id'),
    ],
    'POST /cpo-evse/{evse_uid}': [
      nf(`/cpo-evse/${V.evseUid}`, { dropout_all_chargesessions: true }),
      { path: `/cpo-evse/${M.evseUid}`, body: { evse_id: V.evseId }, expect: 'duplicate', param: '$.evse_id' },
      nf(`/cpo-evse/${M.evseUid}`, { location_id: V.locationId }, '$.location_id'),
    ],
    'PUT /cpo-evse/{evse_uid}/dropout-all-chargesessions': [nf(`/cpo-evse/${V.evseUid}/dropout-all-chargesessions`, { dropout_all_chargesessions: true })],
    'POST /cpo-evse-location': [
      nf('/cpo-evse-location', { admin_id: V.adminId, location_id: fresh('LOC') }, '$.admin_id'),
      { path: '/cpo-evse-location', body: { admin_id: M.adminId, location_id: V.locationId }, expect: 'duplicate', param: '$.location_id' },
    ],
    'POST /cpo-evse-location/{location_id}': [nf(`/cpo-evse-location/${V.locationId}`, { name: 'Taken over' })],

    'POST /cpo-reimbursement-plan': [nf('/cpo-reimbursement-plan', { admin_id: V.adminId, name: 'Plan' }, '$.admin_id')],
    'POST /cpo-reimbursement-plan/{id}': [nf(`/cpo-reimbursement-plan/${V.reimbursementPlanId}`, { name: 'Taken over' })],
    'PUT /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/{component_type}': [
      nf(`/cpo-reimbursement-plan/${V.reimbursementPlanId}/calculation-input/2026-02-01/energy`, { value: '9' }),
    ],
    'DELETE /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/{component_type}': [
      nf(`/cpo-reimbursement-plan/${V.reimbursementPlanId}/calculation-input/2026-01-01/energy`),
    ],
    'PUT /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/custom/{var_name}': [
      nf(`/cpo-reimbursement-plan/${V.reimbursementPlanId}/calculation-input/2026-02-01/custom/bonus`, { value: '9' }),
    ],
    'DELETE /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/custom/{var_name}': [
      nf(`/cpo-reimbursement-plan/${V.reimbursementPlanId}/calculation-input/2026-02-01/custom/bonus`),
    ],
    'PUT /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/{component_type}': [
      nf(`/cpo-reimbursement-arrangement/${V.arrangementId}/calculation-input/2026-02-01/energy`, { value: '9' }),
    ],
    'DELETE /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/{component_type}': [
      nf(`/cpo-reimbursement-arrangement/${V.arrangementId}/calculation-input/2026-01-01/energy`),
    ],
    'PUT /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/custom/{var_name}': [
      nf(`/cpo-reimbursement-arrangement/${V.arrangementId}/calculation-input/2026-02-01/custom/bonus`, { value: '9' }),
    ],
    'DELETE /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/custom/{var_name}': [
      nf(`/cpo-reimbursement-arrangement/${V.arrangementId}/calculation-input/2026-02-01/custom/bonus`),
    ],
    'POST /cpo-reimbursement-arrangement/{id}/switch-plan': [
      nf(`/cpo-reimbursement-arrangement/${V.arrangementId}/switch-plan`, { plan_id: M.reimbursementPlanId }),
      nf(`/cpo-reimbursement-arrangement/${M.arrangementId}/switch-plan`, { plan_id: V.reimbursementPlanId }, '$.plan_id'),
    ],
    'POST /cpo-reimbursement-arrangement': [
      nf('/cpo-reimbursement-arrangement', { admin_id: V.adminId, customer_id: V.customerId }, '$.admin_id'),
      nf('/cpo-reimbursement-arrangement', { admin_id: M.adminId, customer_id: V.customerId }, '$.customer_id'),
    ],
    'POST /cpo-reimbursement-link': [
      nf('/cpo-reimbursement-link', { arrangement_id: V.arrangementId, evse_uid: M.evseUid }, '$.arrangement_id'),
      nf('/cpo-reimbursement-link', { arrangement_id: M.arrangementId, evse_uid: V.evseUid }, '$.evse_uid'),
    ],
    'PUT /cpo-reimbursement-link/{id}/valid-from': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}/valid-from`, { valid_from: '2026-02-01T00:00:00Z' })],
    'DELETE /cpo-reimbursement-link/{id}/valid-from': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}/valid-from`)],
    'PUT /cpo-reimbursement-link/{id}/valid-until': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}/valid-until`, { valid_until: '2027-01-01T00:00:00Z' })],
    'DELETE /cpo-reimbursement-link/{id}/valid-until': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}/valid-until`)],
    'PUT /cpo-reimbursement-link/{id}/defunct': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}/defunct`, {})],
    'POST /cpo-reimbursement-link/{id}': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}`, { valid_until: '2027-01-01T00:00:00Z' })],
    'PUT /cpo-reimbursement-link/{id}': [nf(`/cpo-reimbursement-link/${V.reimbursementLinkId}`, { valid_from: '2026-02-01T00:00:00Z' })],

    'POST /cpo-subscription-plan': [nf('/cpo-subscription-plan', { admin_id: V.adminId, name: 'Plan' }, '$.admin_id')],
    'POST /cpo-subscription-plan/{id}': [nf(`/cpo-subscription-plan/${V.cpoPlanId}`, { name: 'Taken over' })],
    'POST /cpo-subscription-plan/{id}/{valid_from}': [nf(`/cpo-subscription-plan/${V.cpoPlanId}/2026-02-01`, {
      recurring_costs: [{ description: 'Fee', amount_excl_vat: '99', period: 'month', per: 'subscription' }],
    })],
    'POST /cpo-subscription': [
      nf('/cpo-subscription', { customer_id: V.customerId, plan_id: M.cpoPlanId, valid_from: '2026-01-01T00:00:00Z' }, '$.customer_id'),
      nf('/cpo-subscription', { customer_id: M.customerId, plan_id: V.cpoPlanId, valid_from: '2026-01-01T00:00:00Z' }, '$.plan_id'),
    ],
    'POST /cpo-subscription-evse-link': [
      nf('/cpo-subscription-evse-link', { subscription_id: V.cpoSubscriptionId, evse_uid: M.evseUid }, '$.subscription_id'),
      nf('/cpo-subscription-evse-link', { subscription_id: M.cpoSubscriptionId, evse_uid: V.evseUid }, '$.evse_uid'),
    ],
    'PUT /cpo-subscription-evse-link/{id}/valid-from': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}/valid-from`, { valid_from: '2026-02-01T00:00:00Z' })],
    'DELETE /cpo-subscription-evse-link/{id}/valid-from': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}/valid-from`)],
    'PUT /cpo-subscription-evse-link/{id}/valid-until': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}/valid-until`, { valid_until: '2027-01-01T00:00:00Z' })],
    'DELETE /cpo-subscription-evse-link/{id}/valid-until': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}/valid-until`)],
    'PUT /cpo-subscription-evse-link/{id}/defunct': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}/defunct`, {})],
    'POST /cpo-subscription-evse-link/{id}': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}`, { valid_until: '2027-01-01T00:00:00Z' })],
    'PUT /cpo-subscription-evse-link/{id}': [nf(`/cpo-subscription-evse-link/${V.cpoLinkId}`, { valid_from: '2026-02-01T00:00:00Z' })],

    'POST /administration/{id}/billing-exchange-rate': [
      nf(`/administration/${V.adminId}/billing-exchange-rate`, { currency: 'USD', date: '2026-11-02', rate: '9' }),
    ],
    'POST /administration/{id}/billing-settings': [nf(`/administration/${V.adminId}/billing-settings`, { payment_term_days: 1 })],
    'POST /administration/{id}/billing-logo': [{ path: `/administration/${V.adminId}/billing-logo`, raw: LOGO, expect: 'not_found' }],
    'DELETE /administration/{id}/billing-logo': [nf(`/administration/${V.adminId}/billing-logo`)],
    'POST /billing-series': [nf('/billing-series', { admin_id: V.adminId, code: 'TAKEN', external_reference: fresh('series') }, '$.admin_id')],
    'POST /billing-series/{id}': [nf(`/billing-series/${V.seriesId}`, { name: 'Taken over' })],
    'POST /billing-product-category': [nf('/billing-product-category', { admin_id: V.adminId, code: 'TAKEN', description: 'x' }, '$.admin_id')],
    'POST /billing-review-set/{id}/close': [nf(`/billing-review-set/${V.reviewSetId}/close`)],
    'POST /billing-review-set/{id}/approve': [nf(`/billing-review-set/${V.reviewSetId}/approve`, {})],
    'POST /billing-box/{id}/close': [nf(`/billing-box/${V.boxId}/close`, {})],
    'POST /billing-box/{id}/approve': [nf(`/billing-box/${V.boxId}/approve`, {})],
    'POST /billing-box/{id}/reopen': [nf(`/billing-box/${V.boxId}/reopen`)],
    'POST /billing-box/{id}/defer': [nf(`/billing-box/${V.boxId}/defer`)],
    'POST /billing-box/{id}/undefer': [nf(`/billing-box/${V.boxId}/undefer`)],
    'POST /billing-box/{id}/finalize': [nf(`/billing-box/${V.boxId}/finalize`)],
    'POST /billing-box/{id}/transferred': [nf(`/billing-box/${V.boxId}/transferred`)],
    'POST /billing-box/{id}/document/{filename}': [{ path: `/billing-box/${V.boxId}/document/extra.pdf`, raw: PDF, expect: 'not_found' }],
    'DELETE /billing-box/{id}/document/{filename}': [{
      path: `/billing-box/${V.boxId}/document/extra.pdf`, expect: 'not_found',
      noControl: 'the victim\'s box holds no document extra.pdf: not_found for every credential',
    }],
    'POST /billing-custom-item': [
      nf('/billing-custom-item', customItem(V.adminId, V.customerId), '$.admin_id'),
      { ...nf('/billing-custom-item', customItem(M.adminId, V.customerId), '$.party_id'), noControl: CUSTOMER_OF_ADMIN },
    ],
    'POST /billing-custom-item/{external_reference}': [
      nf(`/billing-custom-item/${fresh('CI')}`, customItem(V.adminId, V.customerId), '$.admin_id'),
      // Custom item references are unique per administration (billing_item_external_reference_unique): the caller's own item.
      { path: `/billing-custom-item/${V.customItemRef}`, body: customItem(M.adminId, M.customerId), expect: 'ok', noControl: 'succeeds for the caller already' },
    ],
    'POST /billing-box-delivery-state': [nf('/billing-box-delivery-state', { box_id: V.boxId, channel: 'email' }, '$.box_id')],
    'POST /billing-box-delivery-state/{id}': [nf(`/billing-box-delivery-state/${V.deliveryId}`, { state: 'failed' })],

    'POST /webhook-subscription': [nf('/webhook-subscription', {
      url: 'http://127.0.0.1:9/hook', kinds: ['customer'], secret: 'whsec-taken-over-0123456789', admin_ids: [V.adminId],
    }, '$.admin_ids[0]')],
    'POST /webhook-subscription/{id}': [nf(`/webhook-subscription/${V.webhookId}`, { disabled: true })],
    'POST /webhook-subscription/{id}/redeliver': [nf(`/webhook-subscription/${V.webhookId}/redeliver`, { from_event_id: '1' })],

    // The App API is for app credentials only.
    'POST /{end_user_id}/msp-token-subscription/{subscription_id}/cancel': [forbidden(`/${M.endUserId}/msp-token-subscription/${M.subscriptionId}/cancel`)],
    'POST /{end_user_id}/msp-token-subscription/{subscription_id}/switch-plan': [
      forbidden(`/${M.endUserId}/msp-token-subscription/${M.subscriptionId}/switch-plan`, { plan_id: M.planId }),
    ],
  };
  Object.assign(cases,
    subResource('/msp-token-subscription/{id}', V.subscriptionId, { buyer_reference: 'Taken over' }),
    subResource('/cpo-subscription/{id}', V.cpoSubscriptionId, { buyer_reference: 'Taken over' }),
    subResource('/cpo-reimbursement-arrangement/{id}', V.arrangementId, { buyer_reference: 'Taken over' }));
  return cases;
}

/** App API requests of mine's app credential: the victim's end user, or mine's end user and the victim's subscription. */
function appCases(): Record<string, Case[]> {
  const V = w.victim;
  const M = w.mine;
  return {
    'POST /{end_user_id}/msp-token-subscription/{subscription_id}/cancel': [
      { path: `/${V.endUserId}/msp-token-subscription/${V.subscriptionId}/cancel`, expect: 'not_found' },
      { path: `/${M.endUserId}/msp-token-subscription/${V.subscriptionId}/cancel`, expect: 'not_found' },
    ],
    'POST /{end_user_id}/msp-token-subscription/{subscription_id}/switch-plan': [
      { path: `/${V.endUserId}/msp-token-subscription/${V.subscriptionId}/switch-plan`, body: { plan_id: V.planId }, expect: 'not_found' },
      { path: `/${M.endUserId}/msp-token-subscription/${V.subscriptionId}/switch-plan`, body: { plan_id: V.planId }, expect: 'not_found' },
      { path: `/${M.endUserId}/msp-token-subscription/${M.subscriptionId}/switch-plan`, body: { plan_id: V.planId }, expect: 'not_found', param: '$.plan_id' },
    ],
    // Registers an end user in the credential's own site: inside the caller's scope.
    'POST /enduser/register': [{ path: '/enduser/register', body: { username: fresh('registered') }, expect: 'ok', noControl: 'an App API operation' }],
  };
}

const STATUS: Record<Expect, number> = { not_found: 400, duplicate: 400, forbidden: 403, ok: 200 };

function send(method: string, c: Case, auth: Auth): Promise<Response> {
  if (c.raw) return app.request(method, `/main/v1${c.path}`, { raw: c.raw.bytes, headers: { 'content-type': c.raw.type }, auth });
  return app.request(method, `/main/v1${c.path}`, c.body === undefined ? { auth } : { body: c.body, auth });
}

interface Outcome { what: string; problem: string }

/** Sends each case as `auth` (whose own administration is `ownAdminId`): the answer expected, nothing else changed. */
async function runMatrix(auth: Auth, ownAdminId: string, plan: [string, Case][]): Promise<Outcome[]> {
  const problems: Outcome[] = [];
  let before = await fingerprintOutside(db, ownAdminId);
  for (const [key, c] of plan) {
    const method = key.split(' ')[0];
    const what = `${method} ${c.path} ${c.raw ? `(${c.raw.type})` : JSON.stringify(c.body ?? null).slice(0, 160)}`;
    const response = await send(method, c, auth);
    const after = await fingerprintOutside(db, ownAdminId);
    const changed = changedTables(before, after);
    before = after;
    if (changed.length) problems.push({ what, problem: `changed outside the caller's administration: ${changed.join(', ')} (answer ${response.status})` });
    const body = response.body as Record<string, any> | undefined;
    const code = response.status === 200 ? 'ok' : body?.code;
    const place = body?.param ?? body?.details?.[0]?.param;
    if (response.status !== STATUS[c.expect] || code !== c.expect || (c.expect !== 'ok' && place !== c.param)) {
      problems.push({ what, problem: `expected ${STATUS[c.expect]} ${c.expect}${c.param ? ` at ${c.param}` : ''}, got ${response.status} ${JSON.stringify(body).slice(0, 240)}` });
    } else if (c.expect === 'ok' && c.items) {
      const items = (body?.results ?? []).map((result: Record<string, unknown>) => ({ code: result.code, param: result.param }));
      if (JSON.stringify(items) !== JSON.stringify(c.items)) problems.push({ what, problem: `expected the items ${JSON.stringify(c.items)}, got ${JSON.stringify(items)}` });
    }
  }
  return problems;
}

const report = (t: ExecutionContext, problems: Outcome[]) => t.deepEqual(problems.map((p) => `${p.what}\n      -> ${p.problem}`), []);

function planOf(cases: Record<string, Case[]>): [string, Case][] {
  return Object.entries(cases).flatMap(([key, list]) => list.map((c): [string, Case] => [key, c]));
}

test.serial('every write operation of the OpenAPI document has its cases (none is skipped)', (t) => {
  const operations = writeOperations();
  t.true(operations.length > 100, `${operations.length} write operations`);
  t.deepEqual(Object.keys(limitedCases()).sort(), operations, 'add the cases of a new operation to limitedCases()');
  for (const key of Object.keys(appCases())) t.true(operations.includes(key), key);
  for (const key of operations.filter((k) => /^\w+ \/\{end_user_id\}\//.test(k) || k === 'POST /enduser/register')) {
    t.true(key in appCases(), `the app credential's cases of ${key}`);
  }
});

test.serial('a credential limited to another administration: every write aimed at the victim is refused as the contract says, and nothing outside its own administration changes', async (t) => {
  report(t, await runMatrix(limited, w.mine.adminId, planOf(limitedCases())));
});

/** One request per operation: a role's refusal comes before anything the request names. */
const firstOfEach = (cases: Record<string, Case[]>): [string, Case][] =>
  Object.entries(cases).map(([key, [first]]): [string, Case] => [key, { ...first, expect: 'forbidden', param: undefined }]);

test.serial('a readonly credential: every write is 403 forbidden and nothing changes', async (t) => {
  const plan = firstOfEach(limitedCases());
  report(t, await runMatrix(readonly, '-none-', plan));
});

test.serial('an app credential: every Admin API write is 403 forbidden; App API writes stay inside its end user\'s authorizations', async (t) => {
  const app_ = appCases();
  const plan = firstOfEach(limitedCases()).filter(([key]) => !(key in app_));
  report(t, await runMatrix(appCredential, w.mine.adminId, [...plan, ...planOf(app_)]));
});

// --- GraphQL ---

interface MutationCase {
  query: string;
  variables: Record<string, unknown>;
  expect: Expect;
  param?: string;
  noControl?: string;
}

/** The limited credential's mutations, per mutation field: the victim's ids as arguments (REST ids: every ID argument takes them). */
function mutationCases(): Record<string, MutationCase[]> {
  const V = w.victim;
  const M = w.mine;
  const nf = (query: string, variables: Record<string, unknown>, param?: string): MutationCase => ({ query, variables, expect: 'not_found', param });
  const forbidden = (query: string, variables: Record<string, unknown>): MutationCase => ({ query, variables, expect: 'forbidden' });
  const byId = (field: string, id: string) => nf(`mutation ($id: ID!) { ${field}(id: $id) { __typename } }`, { id });
  const box = (field: string) => [byId(field, V.boxId)];
  const definition = { rates: { energy: { price: '9.99' } }, rules: [] };
  return {
    activateToken: [nf('mutation ($e: String!) { activateToken(evcoId: $e) { __typename } }', { e: V.evcoId }, '$.evcoId')],
    addMonetaryCredit: [nf('mutation ($s: ID!) { addMonetaryCredit(subscriptionId: $s, amount: "1") { __typename } }', { s: V.subscriptionId })],
    addPlugAndChargeVehicle: [
      nf('mutation ($s: ID!, $i: PlugAndChargeVehicleInput!) { addPlugAndChargeVehicle(subscriptionId: $s, input: $i) { __typename } }',
        { s: V.subscriptionId, i: { vehicleVin: 'WVWZZZ1JZXW000003', tokenSeriesId: M.tokenSeriesId } }),
      nf('mutation ($s: ID!, $i: PlugAndChargeVehicleInput!) { addPlugAndChargeVehicle(subscriptionId: $s, input: $i) { __typename } }',
        { s: M.subscriptionId, i: { vehicleVin: 'WVWZZZ1JZXW000004', tokenSeriesId: V.tokenSeriesId } }, '$.input.tokenSeriesId'),
    ],
    addRatePlanVersion: [nf('mutation ($p: ID!, $i: RatePlanVersionInput!) { addRatePlanVersion(ratePlanId: $p, input: $i) { __typename } }',
      { p: V.ratePlanId, i: { validFrom: '2026-06-01T00:00:00Z', definition } })],
    addVirtualToken: [
      nf('mutation ($i: AddVirtualTokenInput!) { addVirtualToken(input: $i) { __typename } }',
        { i: { subscriptionId: V.subscriptionId, tokenSeriesId: M.tokenSeriesId } }, '$.input.subscriptionId'),
      nf('mutation ($i: AddVirtualTokenInput!) { addVirtualToken(input: $i) { __typename } }',
        { i: { subscriptionId: M.subscriptionId, tokenSeriesId: V.tokenSeriesId } }, '$.input.tokenSeriesId'),
    ],
    approveBillingBox: box('approveBillingBox'),
    approveBillingReviewSet: [byId('approveBillingReviewSet', V.reviewSetId)],
    blockCustomerChargeAuthRequests: [byId('blockCustomerChargeAuthRequests', V.customerId)],
    blockTokenChargeAuthRequests: [nf('mutation ($e: String!) { blockTokenChargeAuthRequests(evcoId: $e) { __typename } }', { e: V.evcoId })],
    closeBillingBox: box('closeBillingBox'),
    closeBillingReviewSet: [byId('closeBillingReviewSet', V.reviewSetId)],
    correctPlanOrCustomer: [
      nf('mutation ($id: ID!, $i: PlanOrCustomerCorrectionInput!) { correctPlanOrCustomer(id: $id, input: $i) { __typename } }',
        { id: V.subscriptionId, i: { validFrom: '2026-06-01T00:00:00Z', newPlanId: M.planId } }),
      nf('mutation ($id: ID!, $i: PlanOrCustomerCorrectionInput!) { correctPlanOrCustomer(id: $id, input: $i) { __typename } }',
        { id: M.subscriptionId, i: { validFrom: '2026-06-01T00:00:00Z', newPlanId: V.planId } }, '$.input.newPlanId'),
      nf('mutation ($id: ID!, $i: PlanOrCustomerCorrectionInput!) { correctPlanOrCustomer(id: $id, input: $i) { __typename } }',
        { id: M.subscriptionId, i: { validFrom: '2026-06-01T00:00:00Z', newCustomerId: V.customerId } }, '$.input.newCustomerId'),
    ],
    createCustomer: [nf('mutation ($i: CustomerInput!) { createCustomer(input: $i) { __typename } }',
      { i: { adminId: V.adminId, name: 'Taken over', country: 'NL' } }, '$.input.adminId')],
    createRatePlan: [nf('mutation ($i: RatePlanInput!) { createRatePlan(input: $i) { __typename } }',
      { i: { name: 'Rates', currency: 'EUR', adminIds: [V.adminId] } }, '$.input.adminIds[0]')],
    createReimbursementPlan: [nf('mutation ($i: ReimbursementPlanInput!) { createReimbursementPlan(input: $i) { __typename } }',
      { i: { adminId: V.adminId, name: 'Plan' } }, '$.input.adminId')],
    createRoamingAgreement: [forbidden('mutation ($i: CreateRoamingAgreementInput!) { createRoamingAgreement(input: $i) { __typename } }',
      { i: { connectionId: w.connectionId, role: 'cpo', validFrom: '2024-01-01T00:00:00Z', validUntil: '2024-06-01T00:00:00Z' } })],
    createRoamingConnection: [forbidden('mutation ($i: RoamingConnectionInput!) { createRoamingConnection(input: $i) { __typename } }',
      { i: { name: 'Connection', kind: 'locally_owned', partnerId: w.partnerId } })],
    createRoamingPartner: [forbidden('mutation ($i: RoamingPartnerInput!) { createRoamingPartner(input: $i) { __typename } }',
      { i: { name: 'Partner', country: 'NL', cpoIds: [`NL*${partySuffix()}`] } })],
    createSubscriptionPlan: [
      nf('mutation ($i: SubscriptionPlanInput!) { createSubscriptionPlan(input: $i) { __typename } }', { i: { adminId: V.adminId, name: 'Plan' } }, '$.input.adminId'),
      nf('mutation ($i: SubscriptionPlanInput!) { createSubscriptionPlan(input: $i) { __typename } }',
        { i: { adminId: M.adminId, name: 'Plan', ratePlanId: V.ratePlanId } }, '$.input.ratePlanId'),
    ],
    createTokenLink: [
      nf('mutation ($i: CreateTokenLinkInput!) { createTokenLink(input: $i) { __typename } }',
        { i: { subscriptionId: V.subscriptionId, evcoId: M.spareEvcoId, validFrom: '2027-01-01T00:00:00Z' } }, '$.input.subscriptionId'),
      nf('mutation ($i: CreateTokenLinkInput!) { createTokenLink(input: $i) { __typename } }',
        { i: { subscriptionId: M.subscriptionId, evcoId: V.spareEvcoId, validFrom: '2027-01-01T00:00:00Z' } }, '$.input.evcoId'),
    ],
    createTokenSeries: [nf('mutation ($i: TokenSeriesInput!) { createTokenSeries(input: $i) { __typename } }',
      { i: { adminId: V.adminId, name: 'Series', evcoPrefix: 'NLXYZC' } }, '$.input.adminId')],
    createTokenSubscription: [
      nf('mutation ($i: CreateTokenSubscriptionInput!) { createTokenSubscription(input: $i) { __typename } }',
        { i: { customerId: V.customerId, planId: M.planId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.customerId'),
      nf('mutation ($i: CreateTokenSubscriptionInput!) { createTokenSubscription(input: $i) { __typename } }',
        { i: { customerId: M.customerId, planId: V.planId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.planId'),
      { ...nf('mutation ($i: CreateTokenSubscriptionInput!) { createTokenSubscription(input: $i) { __typename } }',
        { i: { customerId: M.customerId, planId: M.planId, validFrom: '2026-01-01T00:00:00Z', tokenSeriesId: V.tokenSeriesId } }, '$.input.tokenSeriesId'),
      noControl: 'a series of another administration than the subscription\'s is not_found for every credential' },
    ],
    createVatRate: [forbidden('mutation ($i: VatRateInput!) { createVatRate(input: $i) { __typename } }',
      { i: { country: 'LU', vatKind: 'STANDARD', percentage: '17', validFrom: '2020-01-01T00:00:00Z' } })],
    createWebhookSubscription: [nf(`mutation ($a: [String!]) { createWebhookSubscription(adminIds: $a, kinds: ["customer"], secret: "whsec-taken-over-0123456789",
      url: "http://127.0.0.1:9/hook") { __typename } }`, { a: [V.adminId] }, '$.adminIds[0]')],
    deferBillingBox: box('deferBillingBox'),
    defunctCpoSubscription: [byId('defunctCpoSubscription', V.cpoSubscriptionId)],
    defunctTokenLink: [byId('defunctTokenLink', V.tokenLinkId)],
    defunctTokenSubscription: [byId('defunctTokenSubscription', V.subscriptionId)],
    finalizeBillingBox: box('finalizeBillingBox'),
    requestTokenFulfilment: [
      nf('mutation ($s: ID!, $i: TokenFulfilmentInput!) { requestTokenFulfilment(subscriptionId: $s, input: $i) { __typename } }',
        { s: V.subscriptionId, i: { formFactor: 'CARD', tokenSeriesId: M.tokenSeriesId } }),
      nf('mutation ($s: ID!, $i: TokenFulfilmentInput!) { requestTokenFulfilment(subscriptionId: $s, input: $i) { __typename } }',
        { s: M.subscriptionId, i: { formFactor: 'CARD', tokenSeriesId: V.tokenSeriesId } }, '$.input.tokenSeriesId'),
    ],
    saveTokenBrand: [forbidden('mutation ($c: String!) { saveTokenBrand(code: $c, name: "Renamed") { __typename } }', { c: w.brandCode })],
    sendRoamingCommand: [
      nf('mutation ($i: RoamingCommandInput!) { sendRoamingCommand(input: $i) { __typename } }',
        { i: { type: 'STOP_SESSION', roamingConnectionId: w.connectionId, sessionId: V.ocpiSessionId } }, '$.input.sessionId'),
      nf('mutation ($i: RoamingCommandInput!) { sendRoamingCommand(input: $i) { __typename } }',
        { i: { type: 'START_SESSION', roamingConnectionId: w.connectionId, locationId: 'LOC', connectorId: '1', evcoId: V.evcoId } }, '$.input.evcoId'),
    ],
    setBillingLogo: [nf('mutation ($a: String!) { setBillingLogo(adminId: $a, contentType: "image/svg+xml", data: ["PHN2Zy8+"]) { __typename } }', { a: V.adminId })],
    removeBillingLogo: [nf('mutation ($a: String!) { removeBillingLogo(adminId: $a) }', { a: V.adminId })],
    markBillingBoxTransferred: box('markBillingBoxTransferred'),
    reopenBillingBox: box('reopenBillingBox'),
    repriceChargeSession: [byId('repriceChargeSession', V.mspSessionId)],
    reprocessDropoutCase: [
      nf('mutation ($id: ID!) { reprocessDropoutCase(id: $id, instruction: RETRY) { __typename } }', { id: V.mspDropoutCaseId }),
      nf('mutation ($id: ID!) { reprocessDropoutCase(id: $id, instruction: DISCARD) { __typename } }', { id: V.cpoDropoutCaseId }),
    ],
    saveEvse: [
      nf('mutation ($u: String!, $i: EvseInput!) { saveEvse(evseUid: $u, input: $i) { __typename } }', { u: V.evseUid, i: { dropoutAllChargesessions: true } }),
      { query: 'mutation ($u: String!, $i: EvseInput!) { saveEvse(evseUid: $u, input: $i) { __typename } }', variables: { u: M.evseUid, i: { evseId: V.evseId } },
        expect: 'duplicate', param: '$.input.evseId' },
      nf('mutation ($u: String!, $i: EvseInput!) { saveEvse(evseUid: $u, input: $i) { __typename } }', { u: M.evseUid, i: { locationId: V.locationId } },
        '$.input.locationId'),
    ],
    saveEvseLocation: [
      { query: 'mutation ($l: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $l, input: $i) { __typename } }',
        variables: { l: V.locationId, i: { adminId: M.adminId, name: 'Taken over' } }, expect: 'duplicate', param: '$.locationId',
        noControl: 'a credential without a limit sees the location and updates it' },
      nf('mutation ($l: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $l, input: $i) { __typename } }',
        { l: fresh('LOC'), i: { adminId: V.adminId, name: 'New' } }, '$.input.adminId'),
    ],
    setCalculationInput: [
      nf('mutation ($id: ID!) { setCalculationInput(owner: PLAN, ownerId: $id, validFrom: "2026-02-01", componentType: "energy", value: "9") { __typename } }',
        { id: V.reimbursementPlanId }),
      nf('mutation ($id: ID!) { setCalculationInput(owner: ARRANGEMENT, ownerId: $id, validFrom: "2026-02-01", componentType: "energy", value: "9") { __typename } }',
        { id: V.arrangementId }),
    ],
    setEvseDropoutAll: [nf('mutation ($u: String!) { setEvseDropoutAll(evseUid: $u, enabled: true) { __typename } }', { u: V.evseUid })],
    startRoamingSession: [nf('mutation ($i: StartRoamingSessionInput!) { startRoamingSession(input: $i) { __typename } }',
      { i: { roamingConnectionId: w.connectionId, locationId: 'LOC', connectorId: '1', evcoId: V.evcoId } }, '$.input.evcoId')],
    stopRoamingSession: [nf('mutation ($i: StopRoamingSessionInput!) { stopRoamingSession(input: $i) { __typename } }',
      { i: { roamingConnectionId: w.connectionId, sessionId: V.ocpiSessionId } }, '$.input.sessionId')],
    switchReimbursementPlan: [
      nf('mutation ($a: ID!, $p: ID!) { switchReimbursementPlan(arrangementId: $a, planId: $p) { __typename } }', { a: V.arrangementId, p: M.reimbursementPlanId }),
      nf('mutation ($a: ID!, $p: ID!) { switchReimbursementPlan(arrangementId: $a, planId: $p) { __typename } }', { a: M.arrangementId, p: V.reimbursementPlanId },
        '$.planId'),
    ],
    unblockCustomerChargeAuthRequests: [byId('unblockCustomerChargeAuthRequests', V.customerId)],
    unblockTokenChargeAuthRequests: [nf('mutation ($e: String!) { unblockTokenChargeAuthRequests(evcoId: $e) { __typename } }', { e: V.evcoId })],
    undeferBillingBox: box('undeferBillingBox'),
    updateCustomer: [nf('mutation ($id: ID!, $i: CustomerInput!) { updateCustomer(id: $id, input: $i) { __typename } }', { id: V.customerId, i: { name: 'Taken over' } })],
    updateInstance: [forbidden('mutation ($i: InstanceInput!) { updateInstance(input: $i) { __typename } }', { i: { roamingEnabled: true } })],
    updateRatePlan: [nf('mutation ($id: ID!, $i: RatePlanInput!) { updateRatePlan(id: $id, input: $i) { __typename } }', { id: V.ratePlanId, i: { name: 'Taken over' } })],
    updateReimbursementPlan: [nf('mutation ($id: ID!, $i: ReimbursementPlanInput!) { updateReimbursementPlan(id: $id, input: $i) { __typename } }',
      { id: V.reimbursementPlanId, i: { name: 'Taken over' } })],
    updateRoamingAgreement: [forbidden('mutation ($id: ID!, $i: RoamingAgreementInput!) { updateRoamingAgreement(id: $id, input: $i) { __typename } }',
      { id: w.agreementId, i: { validUntil: '2030-01-01T00:00:00Z' } })],
    updateRoamingConnection: [forbidden('mutation ($id: ID!, $i: RoamingConnectionInput!) { updateRoamingConnection(id: $id, input: $i) { __typename } }',
      { id: w.connectionId, i: { notes: 'changed' } })],
    updateRoamingPartner: [forbidden('mutation ($id: ID!, $i: RoamingPartnerInput!) { updateRoamingPartner(id: $id, input: $i) { __typename } }',
      { id: w.partnerId, i: { name: 'Renamed' } })],
    updateSubscriptionPlan: [
      nf('mutation ($id: ID!, $i: SubscriptionPlanInput!) { updateSubscriptionPlan(id: $id, input: $i) { __typename } }', { id: V.planId, i: { name: 'Taken over' } }),
      nf('mutation ($id: ID!, $i: SubscriptionPlanInput!) { updateSubscriptionPlan(id: $id, input: $i) { __typename } }',
        { id: M.planId, i: { ratePlanId: V.ratePlanId } }, '$.input.ratePlanId'),
    ],
    updateToken: [nf('mutation ($e: String!, $i: TokenInput!) { updateToken(evcoId: $e, input: $i) { __typename } }',
      { e: V.evcoId, i: { vehicleVin: 'WVWZZZ1JZXW000001' } })],
    updateTokenLink: [nf('mutation ($id: ID!, $i: TokenLinkInput!) { updateTokenLink(id: $id, input: $i) { __typename } }',
      { id: V.tokenLinkId, i: { validUntil: '2027-01-01T00:00:00Z' } })],
    updateTokenSubscription: [nf('mutation ($id: ID!, $i: TokenSubscriptionInput!) { updateTokenSubscription(id: $id, input: $i) { __typename } }',
      { id: V.subscriptionId, i: { buyerReference: 'Taken over' } })],
    updateVatRate: [forbidden('mutation ($id: ID!, $i: VatRateInput!) { updateVatRate(id: $id, input: $i) { __typename } }', { id: w.vatRateId, i: { percentage: '22' } })],
    updateWebhookSubscription: [nf('mutation ($id: ID!) { updateWebhookSubscription(id: $id, disabled: true) { __typename } }', { id: V.webhookId })],
    // CPO subscriptions, their plans and EVSE links; reimbursement arrangements and links
    createCpoSubscriptionPlan: [nf('mutation ($i: CpoSubscriptionPlanInput!) { createCpoSubscriptionPlan(input: $i) { __typename } }',
      { i: { adminId: V.adminId, name: 'Plan' } }, '$.input.adminId')],
    updateCpoSubscriptionPlan: [nf('mutation ($id: ID!, $i: CpoSubscriptionPlanInput!) { updateCpoSubscriptionPlan(id: $id, input: $i) { __typename } }',
      { id: V.cpoPlanId, i: { name: 'Taken over' } })],
    setCpoSubscriptionPlanVersion: [nf(`mutation ($p: ID!, $c: [CpoRecurringCostInput!]) {
      setCpoSubscriptionPlanVersion(planId: $p, validFrom: "2026-02-01", recurringCosts: $c) { __typename } }`,
    { p: V.cpoPlanId, c: [{ description: 'Fee', amountExclVat: '99', period: 'month', per: 'subscription' }] })],
    createCpoSubscription: [
      nf('mutation ($i: CreateCpoSubscriptionInput!) { createCpoSubscription(input: $i) { __typename } }',
        { i: { customerId: V.customerId, planId: M.cpoPlanId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.customerId'),
      nf('mutation ($i: CreateCpoSubscriptionInput!) { createCpoSubscription(input: $i) { __typename } }',
        { i: { customerId: M.customerId, planId: V.cpoPlanId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.planId'),
    ],
    updateCpoSubscription: [nf('mutation ($id: ID!, $i: CpoSubscriptionInput!) { updateCpoSubscription(id: $id, input: $i) { __typename } }',
      { id: V.cpoSubscriptionId, i: { buyerReference: 'Taken over' } })],
    createCpoSubscriptionEvseLink: [
      nf('mutation ($i: CreateCpoSubscriptionEvseLinkInput!) { createCpoSubscriptionEvseLink(input: $i) { __typename } }',
        { i: { subscriptionId: V.cpoSubscriptionId, evseUid: M.evseUid } }, '$.input.subscriptionId'),
      nf('mutation ($i: CreateCpoSubscriptionEvseLinkInput!) { createCpoSubscriptionEvseLink(input: $i) { __typename } }',
        { i: { subscriptionId: M.cpoSubscriptionId, evseUid: V.evseUid } }, '$.input.evseUid'),
    ],
    updateCpoSubscriptionEvseLink: [nf('mutation ($id: ID!, $i: CpoSubscriptionEvseLinkInput!) { updateCpoSubscriptionEvseLink(id: $id, input: $i) { __typename } }',
      { id: V.cpoLinkId, i: { validUntil: '2027-01-01T00:00:00Z' } })],
    markCpoSubscriptionEvseLinkDefunct: [byId('markCpoSubscriptionEvseLinkDefunct', V.cpoLinkId)],
    createReimbursementArrangement: [
      nf('mutation ($i: CreateReimbursementArrangementInput!) { createReimbursementArrangement(input: $i) { __typename } }',
        { i: { adminId: V.adminId, customerId: V.customerId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.adminId'),
      nf('mutation ($i: CreateReimbursementArrangementInput!) { createReimbursementArrangement(input: $i) { __typename } }',
        { i: { adminId: M.adminId, customerId: V.customerId, validFrom: '2026-01-01T00:00:00Z' } }, '$.input.customerId'),
    ],
    updateReimbursementArrangement: [nf('mutation ($id: ID!, $i: ReimbursementArrangementInput!) { updateReimbursementArrangement(id: $id, input: $i) { __typename } }',
      { id: V.arrangementId, i: { buyerReference: 'Taken over' } })],
    markReimbursementArrangementDefunct: [byId('markReimbursementArrangementDefunct', V.arrangementId)],
    createReimbursementLink: [
      nf('mutation ($i: CreateReimbursementLinkInput!) { createReimbursementLink(input: $i) { __typename } }',
        { i: { arrangementId: V.arrangementId, evseUid: M.evseUid } }, '$.input.arrangementId'),
      nf('mutation ($i: CreateReimbursementLinkInput!) { createReimbursementLink(input: $i) { __typename } }',
        { i: { arrangementId: M.arrangementId, evseUid: V.evseUid } }, '$.input.evseUid'),
    ],
    updateReimbursementLink: [nf('mutation ($id: ID!, $i: ReimbursementLinkInput!) { updateReimbursementLink(id: $id, input: $i) { __typename } }',
      { id: V.reimbursementLinkId, i: { validUntil: '2027-01-01T00:00:00Z' } })],
    markReimbursementLinkDefunct: [byId('markReimbursementLinkDefunct', V.reimbursementLinkId)],
    // billing configuration, custom items, deliveries, a box's documents
    setBillingExchangeRate: [nf('mutation ($a: String!) { setBillingExchangeRate(adminId: $a, currency: "USD", date: "2026-11-02", rate: "9") { __typename } }',
      { a: V.adminId })],
    createBillingSeries: [nf('mutation ($i: BillingSeriesInput!) { createBillingSeries(input: $i) { __typename } }',
      { i: { adminId: V.adminId, code: 'TAKEN', externalReference: fresh('series') } }, '$.input.adminId')],
    updateBillingSeries: [nf('mutation ($id: ID!, $i: BillingSeriesInput!) { updateBillingSeries(id: $id, input: $i) { __typename } }',
      { id: V.seriesId, i: { name: 'Taken over' } })],
    createBillingProductCategory: [nf('mutation ($i: BillingProductCategoryInput!) { createBillingProductCategory(input: $i) { __typename } }',
      { i: { adminId: V.adminId, code: 'TAKEN', description: 'x' } }, '$.input.adminId')],
    updateBillingSettings: [nf('mutation ($a: String!, $i: BillingSettingsInput!) { updateBillingSettings(adminId: $a, input: $i) { __typename } }',
      { a: V.adminId, i: { paymentTermDays: 1 } })],
    billCustomItem: [
      nf('mutation ($i: BillingCustomItemInput!) { billCustomItem(input: $i) { __typename } }', { i: customItemInput(V.adminId, V.customerId) }, '$.input.adminId'),
      { ...nf('mutation ($i: BillingCustomItemInput!, $r: String) { billCustomItem(input: $i, externalReference: $r) { __typename } }',
        { i: customItemInput(M.adminId, V.customerId), r: fresh('CI') }, '$.input.partyId'), noControl: CUSTOMER_OF_ADMIN },
    ],
    createBillingBoxDelivery: [nf('mutation ($i: CreateBillingBoxDeliveryInput!) { createBillingBoxDelivery(input: $i) { __typename } }',
      { i: { boxId: V.boxId, channel: 'email' } }, '$.input.boxId')],
    updateBillingBoxDelivery: [nf('mutation ($id: ID!, $i: BillingBoxDeliveryInput!) { updateBillingBoxDelivery(id: $id, input: $i) { __typename } }',
      { id: V.deliveryId, i: { state: 'failed' } })],
    addBillingBoxDocument: [nf(`mutation ($b: ID!, $d: [String!]!) {
      addBillingBoxDocument(boxId: $b, filename: "extra.pdf", contentType: "application/pdf", data: $d) { __typename } }`, { b: V.boxId, d: [PDF.bytes.toString('base64')] })],
    removeBillingBoxDocument: [{
      query: 'mutation ($b: ID!) { removeBillingBoxDocument(boxId: $b, filename: "extra.pdf") { __typename } }', variables: { b: V.boxId }, expect: 'not_found',
      noControl: 'the victim\'s box may hold no document extra.pdf: document_missing or not_found for every credential',
    }],
    redeliverWebhookSubscription: [nf('mutation ($id: ID!) { redeliverWebhookSubscription(id: $id, fromEventId: "1") { __typename } }', { id: V.webhookId })],

    updateBillingAddress: [
      nf('mutation ($id: ID!, $i: BillingAddressInput!) { updateBillingAddress(id: $id, input: $i) { __typename } }', { id: V.addressId, i: { city: 'Elsewhere' } }),
      nf('mutation ($id: ID!, $i: BillingAddressInput!) { updateBillingAddress(id: $id, input: $i) { __typename } }',
        { id: `ext_ref.${fresh('addr')}`, i: { partyId: V.customerId, city: 'Elsewhere' } }, '$.input.partyId'),
    ],
    createDirectDebitMandate: [nf('mutation ($i: DirectDebitMandateInput!) { createDirectDebitMandate(input: $i) { __typename } }',
      { i: { customerId: V.customerId, bankAccountName: 'X', iban: 'NL91ABNA0417164300' } }, '$.input.customerId')],
    updateDirectDebitMandate: [nf('mutation ($id: ID!, $i: DirectDebitMandateInput!) { updateDirectDebitMandate(id: $id, input: $i) { __typename } }',
      { id: V.mandateId, i: { bankAccountName: 'Taken over' } })],
    markDirectDebitMandateDefunct: [byId('markDirectDebitMandateDefunct', V.mandateId)],
    registerOcpiConnection: [forbidden('mutation ($id: ID!) { registerOcpiConnection(id: $id) { __typename } }', { id: w.connectionId })],

    createEndUser: [nf('mutation ($i: EndUserInput!) { createEndUser(input: $i) { __typename } }', { i: { adminId: V.adminId, username: fresh('user') } }, '$.input.adminId')],
    updateEndUser: [
      nf('mutation ($id: ID!, $i: EndUserInput!) { updateEndUser(id: $id, input: $i) { __typename } }', { id: V.endUserId, i: { name: 'Taken over' } }),
      nf('mutation ($id: ID!, $i: EndUserInput!) { updateEndUser(id: $id, input: $i) { __typename } }', { id: M.endUserId, i: { siteId: V.siteId } }, '$.input.siteId'),
    ],
    updateEndUserCustomerAuthorization: [
      nf('mutation ($u: ID!, $c: ID!) { updateEndUserCustomerAuthorization(endUserId: $u, customerId: $c, input: {}) { __typename } }', { u: V.endUserId, c: V.customerId }),
      { ...nf('mutation ($u: ID!, $c: ID!) { updateEndUserCustomerAuthorization(endUserId: $u, customerId: $c, input: {}) { __typename } }',
        { u: M.endUserId, c: V.customerId }), noControl: CROSS },
    ],
    updateEndUserSubscriptionAuthorization: [
      nf('mutation ($u: ID!, $s: ID!) { updateEndUserSubscriptionAuthorization(endUserId: $u, subscriptionId: $s, input: {}) { __typename } }',
        { u: V.endUserId, s: V.subscriptionId }),
      { ...nf('mutation ($u: ID!, $s: ID!) { updateEndUserSubscriptionAuthorization(endUserId: $u, subscriptionId: $s, input: {}) { __typename } }',
        { u: M.endUserId, s: V.subscriptionId }), noControl: CROSS },
    ],
    createEndUserSite: [nf('mutation ($a: ID!) { createEndUserSite(adminId: $a, name: "Site") { __typename } }', { a: V.adminId }, '$.adminId')],
    // The App API's mutations are for App credentials only (appMutationCases below).
    registerEndUser: [forbidden('mutation { registerEndUser(input: { username: "taken-over" }) { __typename } }', {})],
    cancelViewerSubscription: [forbidden('mutation ($s: String!) { cancelViewerSubscription(subscriptionId: $s) { __typename } }', { s: M.subscriptionId })],
    switchViewerSubscriptionPlan: [forbidden('mutation ($s: String!, $p: String!) { switchViewerSubscriptionPlan(subscriptionId: $s, planId: $p) { __typename } }',
      { s: M.subscriptionId, p: M.planId })],

    // Administrations and credentials serve the whole instance.
    createAdministration: [forbidden('mutation ($i: AdministrationInput!) { createAdministration(input: $i) { __typename } }',
      { i: { id: fresh('adm'), name: 'Taken over', currency: 'EUR', country: 'NL' } })],
    updateAdministration: [forbidden('mutation ($id: ID!) { updateAdministration(id: $id, input: { name: "Taken over" }) { __typename } }', { id: V.adminId })],
    createApiCredential: [forbidden('mutation ($p: String!) { createApiCredential(publicId: $p) { __typename } }', { p: fresh('cred') })],
    updateApiCredentialScope: [forbidden('mutation ($p: String!) { updateApiCredentialScope(publicId: $p, adminIds: []) { __typename } }', { p: limited.publicId })],
    revokeApiCredential: [forbidden('mutation ($p: String!) { revokeApiCredential(publicId: $p) { __typename } }', { p: unlimited.publicId })],
  };
}

/** The App API's mutations as the app credential calls them, with its end user in the X-SVC-End-User header (mine's). */
function appMutationCases(): MutationCase[] {
  const V = w.victim;
  const M = w.mine;
  return [
    { query: 'mutation ($s: String!) { cancelViewerSubscription(subscriptionId: $s) { __typename } }', variables: { s: V.subscriptionId }, expect: 'not_found' },
    { query: 'mutation ($s: String!, $p: String!) { switchViewerSubscriptionPlan(subscriptionId: $s, planId: $p) { __typename } }',
      variables: { s: V.subscriptionId, p: V.planId }, expect: 'not_found' },
    { query: 'mutation ($s: String!, $p: String!) { switchViewerSubscriptionPlan(subscriptionId: $s, planId: $p) { __typename } }',
      variables: { s: M.subscriptionId, p: V.planId }, expect: 'not_found', param: '$.planId' },
    // Registers an end user in the credential's own site: inside the caller's scope.
    { query: 'mutation ($u: String!) { registerEndUser(input: { username: $u }) { __typename } }', variables: { u: fresh('registered') }, expect: 'ok' },
  ];
}

const fieldOf = (query: string) => /\{\s*(\w+)\s*\(/.exec(query)![1];

/** Sends each mutation as `auth`: a GraphQL error with the expected code (and param), null data, nothing changed outside its own administration. */
async function runMutations(auth: Auth, ownAdminId: string, plan: MutationCase[], headers: Record<string, string> = {}): Promise<Outcome[]> {
  const problems: Outcome[] = [];
  let before = await fingerprintOutside(db, ownAdminId);
  for (const c of plan) {
    const what = `${fieldOf(c.query)} ${JSON.stringify(c.variables).slice(0, 160)}`;
    const response = await app.request('POST', '/graphql', { body: { query: c.query, variables: c.variables }, auth, headers });
    const after = await fingerprintOutside(db, ownAdminId);
    const changed = changedTables(before, after);
    before = after;
    if (changed.length) problems.push({ what, problem: `changed outside the caller's administration: ${changed.join(', ')} (answer ${response.status})` });
    const [error] = response.body?.errors ?? [];
    const code = error?.extensions?.code;
    const place = error?.extensions?.param ?? error?.extensions?.details?.[0]?.param;
    if (c.expect === 'ok') {
      if (response.body?.errors?.length || !response.body?.data?.[fieldOf(c.query)]) problems.push({ what, problem: `expected ok, got ${response.status} ${JSON.stringify(response.body).slice(0, 240)}` });
      continue;
    }
    const expectedCode = c.expect === 'forbidden' && response.status === 403 ? 'FORBIDDEN' : c.expect;
    if (code !== expectedCode || place !== c.param || (response.body?.data && response.body.data[fieldOf(c.query)] !== null)) {
      problems.push({ what, problem: `expected ${c.expect}${c.param ? ` at ${c.param}` : ''}, got ${response.status} ${JSON.stringify(response.body).slice(0, 240)}` });
    }
  }
  return problems;
}

test.serial('every GraphQL mutation of the schema has its cases (none is skipped)', async (t) => {
  const { data } = (await app.request('POST', '/graphql', { body: { query: '{ __schema { mutationType { fields { name } } } }' } })).body;
  const mutations = data.__schema.mutationType.fields.map((f: { name: string }) => f.name).sort();
  t.true(mutations.length > 30, `${mutations.length} mutations`);
  t.deepEqual(Object.keys(mutationCases()).sort(), mutations, 'add the cases of a new mutation to mutationCases()');
  for (const [field, list] of Object.entries(mutationCases())) for (const c of list) t.is(fieldOf(c.query), field);
});

test.serial('GraphQL: every mutation by a credential limited to another administration is refused as the contract says, and nothing outside its own administration changes', async (t) => {
  report(t, await runMutations(limited, w.mine.adminId, Object.values(mutationCases()).flat()));
});

test.serial('GraphQL: a readonly credential may not mutate at all, an app credential only through the App API\'s mutations (403), and nothing changes', async (t) => {
  const plan = Object.values(mutationCases()).map(([first]) => ({ ...first, expect: 'forbidden' as const, param: undefined }));
  report(t, await runMutations(readonly, '-none-', plan));
  const adminOnly = plan.filter((c) => !APP_MUTATIONS.has(fieldOf(c.query)));
  report(t, await runMutations(appCredential, w.mine.adminId, [...adminOnly, ...appMutationCases()], { 'x-svc-end-user': w.mine.endUserId }));
});

// --- what the queued work does, then the control pass ---

/** Runs the worker until no job is due or running (the matrix runs with the worker stopped). */
async function drainJobs(): Promise<void> {
  const worker = await startWorker(app.orm, app.databaseUrl);
  try {
    await quiet(db);
  } finally {
    await worker.stop();
  }
}

test.serial('the work the accepted requests queued (session processing, deliveries) changes nothing outside the caller\'s administration either', async (t) => {
  const before = await fingerprintOutside(db, w.mine.adminId);
  const started = Date.now();
  await drainJobs();
  t.log(`drained in ${Date.now() - started} ms`);
  t.deepEqual(changedTables(before, await fingerprintOutside(db, w.mine.adminId)), []);
  const { rows } = await db.query<{ status: string; admin_id: string | null }>(
    `select status, admin_id from msp_charge_session where evse_id = $1 and evco_id = $2`, [w.victim.evseId, w.mine.evcoId]);
  t.deepEqual(rows.map((r) => r.admin_id), [w.mine.adminId], 'the caller\'s session at the victim\'s EVSE was processed as the caller\'s');
  t.true(rows.every((r) => r.status !== 'received'));
});

test.serial('control: each request refused as not_found above is not not_found for a credential without a limit (its ids exist and are addressable)', async (t) => {
  const problems: string[] = [];
  for (const [key, c] of planOf(limitedCases())) {
    if (c.expect !== 'not_found' || c.noControl) continue;
    const response = await send(key.split(' ')[0], c, unlimited);
    const body = response.body as Record<string, any> | undefined;
    if (body?.code === 'not_found' && (body.param ?? body.details?.[0]?.param) === c.param) problems.push(`${key} ${c.path}: ${JSON.stringify(body)}`);
  }
  for (const c of Object.values(mutationCases()).flat()) {
    if (c.expect !== 'not_found' || c.noControl) continue;
    const response = await app.request('POST', '/graphql', { body: { query: c.query, variables: c.variables }, auth: unlimited });
    const [error] = response.body?.errors ?? [];
    if (error?.extensions?.code === 'not_found' && (error.extensions.param ?? error.extensions.details?.[0]?.param) === c.param) {
      problems.push(`${fieldOf(c.query)} ${JSON.stringify(c.variables)}: ${JSON.stringify(error)}`);
    }
  }
  t.deepEqual(problems, []);
});
