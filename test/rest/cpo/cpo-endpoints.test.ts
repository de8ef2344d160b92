// Every CPO operation of the interface spec (its "CPO" table, the deprecated replace-updates and
// single-field operations of CPO resources) is in the served OpenAPI document; the deprecated
// ones are marked deprecated and still work.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createArrangement, createEvse, linkEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const CPO = `get /cpo-evse; get /cpo-evse/{evse_uid}; post /cpo-evse/{evse_uid}; put /cpo-evse/{evse_uid}/dropout-all-chargesessions;
post /cpo-evse-location/{location_id}; post /cpo-evse; post /cpo-evse-location; get /cpo-charge-session; post /cpo-charge-session;
get /cpo-charge-session/{id}; post /charge-session; get /cpo-charge-session-reimbursement; get /cpo-charge-session-reimbursement/{id};
get /cpo-dropout-case; get /cpo-dropout-case/{id}; get /cpo-reimbursement-arrangement/{id}/calculation-input;
put /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/{component_type};
put /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/custom/{var_name};
delete /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/{component_type};
delete /cpo-reimbursement-arrangement/{id}/calculation-input/{valid_from}/custom/{var_name};
post /cpo-reimbursement-arrangement/{id}; put /cpo-reimbursement-arrangement/{id}/defunct; post /cpo-reimbursement-arrangement/{id}/switch-plan;
get /cpo-reimbursement-link; post /cpo-reimbursement-link/{id}; put /cpo-reimbursement-link/{id}/defunct; get /cpo-reimbursement-plan;
get /cpo-reimbursement-plan/{id}; get /cpo-reimbursement-plan/{id}/calculation-input;
put /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/{component_type}; put /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/custom/{var_name};
delete /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/{component_type}; delete /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/custom/{var_name};
post /cpo-subscription/{id}; put /cpo-subscription/{id}/defunct; post /cpo-subscription-evse-link/{id}; put /cpo-subscription-evse-link/{id}/defunct;
get /cpo-subscription-plan; get /cpo-subscription-plan/{id}; post /cpo-subscription-plan/{id}/{valid_from}`;

const DEPRECATED = `put /cpo-reimbursement-arrangement/{id}; put /cpo-reimbursement-link/{id}; put /cpo-subscription/{id}; put /cpo-subscription-evse-link/{id};
put /cpo-reimbursement-arrangement/{id}/valid-until; delete /cpo-reimbursement-arrangement/{id}/valid-until; put /cpo-reimbursement-arrangement/{id}/valid-from;
put /cpo-reimbursement-link/{id}/valid-from; delete /cpo-reimbursement-link/{id}/valid-from; put /cpo-reimbursement-link/{id}/valid-until;
delete /cpo-reimbursement-link/{id}/valid-until; put /cpo-subscription/{id}/valid-until; delete /cpo-subscription/{id}/valid-until;
put /cpo-subscription/{id}/valid-from; put /cpo-subscription-evse-link/{id}/valid-from; delete /cpo-subscription-evse-link/{id}/valid-from;
put /cpo-subscription-evse-link/{id}/valid-until; delete /cpo-subscription-evse-link/{id}/valid-until; post /cpo-evse; post /cpo-evse-location`;

const operations = (list: string) => list.split(';').map((entry) => entry.trim().split(' ') as [string, string]);
/** OpenAPI path templates compared by shape: parameter names may differ. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

test('every CPO operation of the spec is served; the deprecated ones are marked', async (t) => {
  const document = (await app.request('GET', '/main/v1/openapi.json', { auth: null })).body;
  const served = new Map<string, Record<string, any>>();
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries(item)) served.set(`${method} ${shape(path)}`, operation);
  }
  for (const [method, path] of operations(CPO)) t.true(served.has(`${method} ${shape(path)}`), `${method} ${path}`);
  for (const [method, path] of operations(DEPRECATED)) t.true(served.get(`${method} ${shape(path)}`)?.deprecated === true, `${method} ${path} deprecated`);
});

test('the deprecated replace and single-field operations of arrangements and links still work', async (t) => {
  const admin = (await createAdministration(app)).id;
  const owner = await createCustomer(app, admin);
  const arrangement = await createArrangement(app, admin, owner.id, { buyer_reference: 'PO-1' });
  const api = (path: string) => `/main/v1${path}`;
  const until = await app.request('PUT', api(`/cpo-reimbursement-arrangement/${arrangement.id}/valid-until`), { body: { valid_until: '2027-01-01T00:00:00Z' } });
  t.is(until.body.valid_until, '2027-01-01T00:00:00.000Z');
  t.is((await app.request('DELETE', api(`/cpo-reimbursement-arrangement/${arrangement.id}/valid-until`))).body.valid_until, null);
  const replaced = await app.request('PUT', api(`/cpo-reimbursement-arrangement/${arrangement.id}`), { body: { valid_from: '2026-02-01T00:00:00Z' } });
  t.like(replaced.body, { valid_from: '2026-02-01T00:00:00.000Z', buyer_reference: null }, 'omitted fields are reset');
  const evse = await createEvse(app, admin);
  const link = await linkEvse(app, arrangement.id, evse.evse_uid);
  const from = await app.request('PUT', api(`/cpo-reimbursement-link/${link.id}/valid-from`), { body: { valid_from: '2026-03-01T00:00:00Z' } });
  t.is(from.body.valid_from, '2026-03-01T00:00:00.000Z');
  t.is((await app.request('DELETE', api(`/cpo-reimbursement-link/${link.id}/valid-from`))).body.valid_from, null);
  const replacedLink = await app.request('PUT', api(`/cpo-reimbursement-link/${link.id}`), { body: { valid_until: '2026-12-01T00:00:00Z' } });
  t.like(replacedLink.body, { valid_from: null, valid_until: '2026-12-01T00:00:00.000Z' });
  const bad = await app.request('PUT', api(`/cpo-reimbursement-link/${link.id}/valid-until`), { body: { valid_until: 'soon' } });
  t.is(bad.body.param, '$.valid_until');
});
