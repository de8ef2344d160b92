// Enum query filters, from the served OpenAPI document (shared decisions "Running the service": an
// enum query filter with an unknown value is 400 naming the `query_param`): every query parameter
// of every GET operation whose schema has an `enum` is called with a value outside it, and every
// filter that is an enumeration declares its `enum` (the one yup block, `oneOf`, puts it there).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createEndUser } from '../../helpers/factories.ts';

let app: TestApp;
let doc: any;
let appAuth: Auth;
let endUserId: string;
test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  doc = (await app.request('GET', '/main/v1/openapi.json', { auth: null })).body;
  const admin = await createAdministration(app);
  endUserId = (await createEndUser(app, admin.id)).id;
  appAuth = await app.credential({ role: 'app' });
});
test.after.always(async () => { await app?.close(); });

/** Valid values for the query parameters an operation requires (a new required one fails the test until it is listed). */
const REQUIRED_SAMPLES: Record<string, string> = {
  start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T11:00:00+01:00', energy_kwh: '10', country: 'NL',
  time_zone: 'Europe/Amsterdam', latitude: '52.09', longitude: '5.12',
};

const UNKNOWN = 'bogus_value';

interface Param { name: string; in: string; required?: boolean; schema: { enum?: unknown[]; type?: unknown } }
interface Get { path: string; params: Param[] }

const gets = (): Get[] => Object.entries(doc.paths as Record<string, any>)
  .filter(([, item]) => item.get)
  .map(([path, item]) => ({ path, params: (item.get.parameters ?? []) as Param[] }));

const queryParams = (get: Get) => get.params.filter((p) => p.in === 'query');

/** The URL of a GET with `name=value` and valid values for whatever else it requires. */
function urlOf(get: Get, name: string, value: string): string {
  const path = get.path.replace(/\{(\w+)\}/g, (_m, param: string) => (param === 'end_user_id' ? endUserId : randomUUID()));
  const query = new URLSearchParams();
  for (const p of queryParams(get)) {
    if (p.required && p.name !== name) {
      if (REQUIRED_SAMPLES[p.name] === undefined) throw new Error(`${get.path}: no sample for the required query parameter ${p.name}`);
      query.set(p.name, REQUIRED_SAMPLES[p.name]);
    }
  }
  query.set(name, value);
  return `/main/v1${path}?${query}`;
}

const authOf = (get: Get) => (get.path.startsWith('/{end_user_id}') ? appAuth : undefined);

const enumFilters = () => gets().flatMap((get) => queryParams(get).filter((p) => Array.isArray(p.schema.enum)).map((param) => ({ get, param })));

test('every enum query filter of every GET answers an unknown value with 400 naming the query_param', async (t) => {
  const filters = enumFilters();
  const named = filters.map(({ get, param }) => `${get.path}?${param.name}`);
  for (const expected of ['/cpo-dropout-case?reason', '/msp-dropout-case?reason', '/event?kind', '/ocpi-invalid-cdr?resolved', '/msp-charge-session?status']) {
    t.true(named.includes(expected), `${expected} is an enum filter of the document`);
  }
  for (const { get, param } of filters) {
    t.false(param.schema.enum!.includes(UNKNOWN));
    const url = urlOf(get, param.name, UNKNOWN);
    const response = await app.request('GET', url, { auth: authOf(get) });
    t.is(response.status, 400, `${url}: ${JSON.stringify(response.body)}`);
    t.is(response.body.query_param, param.name, `${url}: ${JSON.stringify(response.body)}`);
    t.is(response.body.code, 'validation_failed', url);
    t.is(response.body.param, undefined, url);
    // Values differ from the listed ones only in casing: unknown as well.
    const upper = String(param.schema.enum![0]).toUpperCase() === param.schema.enum![0] ? String(param.schema.enum![0]).toLowerCase() : String(param.schema.enum![0]).toUpperCase();
    if (!param.schema.enum!.includes(upper)) {
      const cased = await app.request('GET', urlOf(get, param.name, upper), { auth: authOf(get) });
      t.is(cased.status, 400, `${get.path}?${param.name}=${upper}`);
      t.is(cased.body.query_param, param.name);
    }
  }
});

test('every listed value of an enum filter is accepted where the operation needs nothing else', async (t) => {
  for (const { get, param } of enumFilters()) {
    if (get.path.includes('{') || queryParams(get).some((p) => p.required)) continue;
    for (const value of param.schema.enum!) {
      const response = await app.request('GET', urlOf(get, param.name, String(value)), { auth: authOf(get) });
      t.is(response.status, 200, `${get.path}?${param.name}=${String(value)}: ${JSON.stringify(response.body)}`);
    }
  }
});

/** Query parameters whose name says they are an enumeration. */
const ENUMERATION_NAME = /^(status|state|kind|reason|used|resolved|current_type|vat_kind|side|role|mode|is_\w+|has_\w+|\w+_state|\w+_status)$/;

test('every enumeration among the query filters declares its enum in the document', (t) => {
  let seen = 0;
  for (const get of gets()) {
    for (const param of queryParams(get)) {
      if (!ENUMERATION_NAME.test(param.name)) continue;
      seen++;
      t.true(Array.isArray(param.schema.enum) && param.schema.enum.length > 0, `${get.path}?${param.name}: ${JSON.stringify(param.schema)}`);
    }
  }
  t.true(seen >= 10);
});
