import { readdirSync } from 'node:fs';
import Router from '@koa/router';
import test from 'ava';
import * as yup from 'yup';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { OpenApiCheck, openApiCheck } from '../../helpers/openapi-check.ts';
import { representation, SchemaComponents, t as f } from '../../../rest/rails/shape.ts';
import { mountRoutes } from '../../../rest/rails/route.ts';
import { toJsonSchema } from '../../../rest/rails/yup-to-json-schema.ts';
import { routes } from '../../../rest/routes.ts';

let app: TestApp;
let doc: any;
test.before(async () => {
  app = await startTestApp();
  const response = await app.request('GET', '/main/v1/openapi.json', { auth: null });
  if (response.status !== 200) throw new Error(`openapi.json: ${response.status}`);
  doc = response.body;
});
test.after.always(async () => { await app?.close(); });

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const operations = () => Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
  Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ path, method, op: op as any })));

test('is served without credentials as OpenAPI 3.1 for /main/v1', (t) => {
  t.is(doc.openapi, '3.1.0');
  t.is(doc.info.version, '4.9.0');
  t.truthy(doc.info.title);
  t.deepEqual(doc.servers, [{ url: '/main/v1' }]);
  t.deepEqual(doc.components.securitySchemes.basicAuth, { ...doc.components.securitySchemes.basicAuth, type: 'http', scheme: 'basic' });
  t.deepEqual(doc.security, [{ basicAuth: [] }]);
});

test('every operation the router mounts is in the document, and nothing else', (t) => {
  const router = new Router();
  mountRoutes(router, routes);
  const mounted = router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD')
    .map((m) => `${m.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`));
  t.true(mounted.length >= routes.length);
  const documented = operations().map(({ path, method }) => `${method} ${path}`);
  t.deepEqual([...documented].sort(), [...new Set(mounted)].sort());
});

test('each operation has a summary, tags, a unique operationId and the shared error responses', (t) => {
  const ids = new Set<string>();
  for (const { path, method, op } of operations()) {
    const where = `${method} ${path}`;
    t.truthy(op.summary, where);
    t.true(Array.isArray(op.tags) && op.tags.length > 0, where);
    t.regex(op.operationId, /^[A-Za-z][A-Za-z0-9]*$/, where);
    t.false(ids.has(op.operationId), `${where}: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    for (const status of ['400', '401', '403']) t.truthy(op.responses[status]?.$ref, `${where} ${status}`);
    const success = Object.keys(op.responses).find((status) => status.startsWith('2'));
    t.truthy(success, where);
    t.truthy(op.responses[success!].headers['X-SVC-Version'], where);
    const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name).sort();
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    t.deepEqual(declared, inPath, where);
  }
});

test('deprecated operations and fields are marked, extensions flagged', (t) => {
  t.true(doc.paths['/customer/{id}'].put.deprecated);
  t.is(doc.paths['/customer/{id}'].post.deprecated, undefined);
  const body = doc.paths['/customer/{id}'].post.requestBody.content['application/json'].schema;
  t.true(body.properties.billing_rollup_method.deprecated);
  t.is(body.properties.billing_rollup_group_by.deprecated, undefined);
  t.true(doc.paths['/customer'].post['x-extension']);
  t.is(doc.paths['/customer'].get['x-extension'], undefined);
  for (const { op } of operations()) t.true(op.deprecated === undefined || op.deprecated === true);
});

test('request bodies come from the yup schemas', (t) => {
  const body = doc.paths['/customer/{id}'].post.requestBody.content['application/json'].schema;
  t.is(body.type, 'object');
  t.deepEqual(body.properties.name, { type: ['string', 'null'], maxLength: 255 });
  // A country: two letters in any casing, an officially assigned code (src/platform/countries.ts).
  t.deepEqual(body.properties.country, { type: ['string', 'null'], minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$' });
  t.deepEqual(body.properties.entity_type, { type: ['string', 'null'], enum: ['person', 'organisation', null] });
  // Strings without a maximum of their own carry the rails' 10,000 (rest/rails/input-guards.ts).
  t.deepEqual(body.properties.external_updated_at, { type: ['string', 'null'], format: 'date-time', maxLength: 10_000 });
  t.is(body.properties.custom_fields.type[0], 'object');
});

test('paged lists document after, page_size, created_gt and the envelope', (t) => {
  const list = doc.paths['/customer'].get;
  const params = Object.fromEntries(list.parameters.map((p: any) => [p.name, p]));
  t.is(params.page_size.schema.default, 500);
  t.is(params.page_size.schema.maximum, 1000);
  t.truthy(params.after);
  t.truthy(params.created_gt);
  t.truthy(params.admin_id);
  t.is(params.admin_id.in, 'query');
  const envelope = list.responses['200'].content['application/json'].schema;
  t.deepEqual(Object.keys(envelope.properties).sort(), ['items', 'link_next', 'page_size']);
  t.truthy(list.responses['200'].headers.Link);
  t.is(doc.paths['/administration'].get.parameters, undefined, 'not paged');
});

test('every $ref resolves to a component', (t) => {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref') refs.push(value as string);
        else walk(value);
      }
    }
  };
  walk(doc);
  t.true(refs.length > 0);
  for (const ref of new Set(refs)) {
    t.true(ref.startsWith('#/components/'), ref);
    const target = ref.slice(2).split('/').reduce((node: any, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    t.truthy(target, ref);
  }
  const error = doc.components.schemas.Error;
  t.deepEqual(Object.keys(error.properties).sort(), ['code', 'details', 'message', 'param', 'query_param']);
});

test('yup conversion: required members, numbers, arrays, nested objects', (t) => {
  const schema = yup.object({
    n: yup.number().integer().min(1).max(9).required(),
    r: yup.number().moreThan(0).lessThan(1),
    tags: yup.array(yup.object({ code: yup.string().length(3).required() })).max(4).nullable(),
    flag: yup.boolean(),
  });
  t.deepEqual(toJsonSchema(schema), {
    type: 'object',
    properties: {
      n: { type: 'integer', minimum: 1, maximum: 9 },
      r: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      tags: {
        type: ['array', 'null'], maxItems: 4,
        items: { type: 'object', properties: { code: { type: 'string', minLength: 3, maxLength: 3 } }, required: ['code'] },
      },
      flag: { type: 'boolean' },
    },
    required: ['n'],
  });
});

/** A schema with its $ref followed (one level at a time). */
const resolve = (schema: any): any => (schema?.$ref ? resolve(schema.$ref.slice(2).split('/').reduce((node: any, part: string) => node[part], doc)) : schema);

/** A representation: an object with members, all of them described, no others allowed. */
function isStrictObject(schema: any): boolean {
  const resolved = resolve(schema);
  return resolved?.type === 'object' && Object.keys(resolved.properties ?? {}).length > 0 && resolved.additionalProperties === false;
}

test('every operation answers a representation: a strict object schema, items of lists too', (t) => {
  for (const { path, method, op } of operations()) {
    const where = `${method} ${path}`;
    const success = Object.keys(op.responses).filter((status) => status.startsWith('2'));
    t.is(success.length, 1, where);
    const content = op.responses[success[0]].content;
    if (!content['application/json']) {
      // A document download: every type it answers is a binary file.
      t.true(Object.values(content).every((c: any) => c.schema.format === 'binary'), where);
      continue;
    }
    const schema = resolve(content['application/json'].schema);
    if (schema?.type === 'array') {
      // The spec's calculation-input lists answer a bare array (of representations).
      t.true(isStrictObject(schema.items), `${where}: array items`);
      continue;
    }
    t.true(isStrictObject(schema), `${where}: ${JSON.stringify(schema).slice(0, 200)}`);
    t.true(Array.isArray(schema.required) && schema.required.length > 0, where);
    if (schema.properties.items) t.true(isStrictObject(schema.properties.items.items), `${where}: items`);
    if (op.parameters?.some((p: any) => p.name === 'after')) {
      t.deepEqual(Object.keys(schema.properties).sort(), ['items', 'link_next', 'page_size'], where);
      t.deepEqual(schema.required.sort(), ['items', 'page_size'], where);
    }
  }
});

test('representations are components, every member required (null where absent), as the serializers answer them', (t) => {
  const customer = doc.components.schemas.Customer;
  t.true(isStrictObject(customer));
  t.deepEqual([...customer.required].sort(), Object.keys(customer.properties).sort());
  t.deepEqual(customer.properties.billing_email, { type: ['string', 'null'] });
  t.deepEqual(customer.properties.created_at, { type: 'string', format: 'date-time' });
  t.deepEqual(customer.properties.entity_type, { type: 'string', enum: ['person', 'organisation'] });
  t.deepEqual(doc.paths['/customer/{id}'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Customer' });
  const list = doc.paths['/administration'].get.responses['200'].content['application/json'].schema;
  t.deepEqual(list.required, ['items'], 'not paged: {items}');
  t.deepEqual(list.properties.items.items, { $ref: '#/components/schemas/Administration' });
  const credit = doc.components.schemas.MonetaryCreditState.properties.last_movement;
  t.deepEqual(credit, { anyOf: [{ $ref: '#/components/schemas/MonetaryCreditMovement' }, { type: 'null' }] });
  t.is(doc.components.schemas.VatRate.properties.percentage.type, 'string', 'decimals are strings');
});

test('error answers are documented with the one error body', (t) => {
  const error = doc.components.schemas.Error;
  t.false(error.additionalProperties);
  t.deepEqual(error.required, ['code', 'message']);
  for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'TooManyRequests', 'ServiceUnavailable']) {
    t.deepEqual(doc.components.responses[name].content['application/json'].schema, { $ref: '#/components/schemas/Error' }, name);
  }
  t.truthy(doc.components.responses.TooManyRequests.headers['Retry-After']);
  t.truthy(doc.components.responses.ServiceUnavailable.headers['Retry-After']);
  // 404 and 405 answer paths and methods outside the document: said once, in its description (no component names them).
  t.regex(doc.info.description, /404 `route_not_found`.*405 `method_not_allowed` with `Allow`, both with the Error body/s);
  for (const { path, method, op } of operations()) {
    for (const status of ['400', '401', '403', '429', '503']) t.truthy(op.responses[status]?.$ref, `${method} ${path} ${status}`);
  }
});

test('the test client checks each answer against the document, and a drifted answer fails', async (t) => {
  const check = new OpenApiCheck(doc);
  const admin = await createAdministration(app);
  const customer = await createCustomer(app, admin.id);
  const json = 'application/json; charset=utf-8';
  const url = `/main/v1/customer/${customer.id}`;
  t.notThrows(() => check.check('GET', url, 200, customer, json));
  t.is(check.operationFor('get', `/customer/${customer.id}`)?.path, '/customer/{id}');
  t.is(check.operationFor('post', '/msp-token-subscription/add-virtual-token')?.path, '/msp-token-subscription/add-virtual-token');
  t.is(check.operationFor('get', '/msp-token-subscription/add-virtual-token'), null, 'a fixed path outranks /{id} (405)');

  const { name: _name, ...missing } = customer;
  const drifted: [string, unknown][] = [
    ['must NOT have additional properties ("surprise")', { ...customer, surprise: 1 }],
    ['must have required property \'name\'', missing],
    ['/created_at must match format "date-time"', { ...customer, created_at: '2026-01-01T00:00:00Z' }],
    ['/name must be string', { ...customer, name: null }],
    ['/entity_type must be equal to one of the allowed values', { ...customer, entity_type: 'robot' }],
  ];
  const detectsDrift = (checker: OpenApiCheck) => {
    for (const [message, body] of drifted) {
      const error = t.throws(() => checker.check('GET', `${url}?x=1`, 200, body, json));
      t.true(error?.message.includes(message), error?.message);
      t.regex(error!.message, /GET \/main\/v1\/customer\/\S+ answered 200, which does not match getCustomerById 200/);
    }
  };
  detectsDrift(check);
  // The run keeps the validators a checker compiled (test/helpers/validator-cache.ts): another checker evaluates them from there.
  const cacheDir = process.env.SVC_TEST_VALIDATOR_CACHE;
  if (cacheDir) t.true(readdirSync(cacheDir, { recursive: true }).some((file) => String(file).endsWith('.js')));
  detectsDrift(new OpenApiCheck(doc));
  const page = (await app.request('GET', '/main/v1/customer?page_size=1')).body;
  t.notThrows(() => check.check('GET', '/main/v1/customer?page_size=1', 200, page, json));
  t.throws(() => check.check('GET', '/main/v1/customer', 200, { ...page, total: 3 }, json), { message: /additional properties \("total"\)/ });
  t.throws(() => check.check('GET', '/main/v1/customer', 200, { ...page, items: [{ ...customer, country: 7 }] }, json), { message: /\/items\/0\/country must be string/ });

  t.throws(() => check.check('GET', url, 500, { code: 'internal_error', message: 'x' }, json), { message: /a status getCustomerById does not list/ });
  t.throws(() => check.check('GET', url, 400, { code: 'not_found', message: 'x', hint: 'y' }, json), { message: /additional properties \("hint"\)/ });
  t.notThrows(() => check.check('GET', url, 400, { code: 'not_found', message: 'x', param: '$.id' }, json));
  t.notThrows(() => check.check('DELETE', url, 405, { code: 'method_not_allowed', message: 'x' }, json), 'outside the document: an error answer');
  t.throws(() => check.check('GET', '/main/v1/nothing', 200, {}, json), { message: /the document has no get \/nothing/ });
  t.notThrows(() => check.check('GET', '/main/version', 200, { anything: true }, json), 'only /main/v1 is checked');
  t.notThrows(() => check.check('GET', url, 200, 'not json', 'text/plain'), 'only JSON answers are checked');
  t.notThrows(() => check.check('GET', url, 431, undefined, null), 'not the app\'s answer: Node refusing oversized headers');
});

test.serial('the test client is wired: its own answers go through the check', async (t) => {
  const shared = openApiCheck(doc);
  const before = shared.checked;
  const admin = await createAdministration(app);
  await createCustomer(app, admin.id);
  t.is((await app.request('GET', '/main/v1/customer/', { auth: null })).status, 404);
  t.is((await app.request('PATCH', '/main/v1/customer')).status, 405);
  t.is(shared.checked, before + 3);
});

test('shapes: strict objects, nullable and optional members, named components', (t) => {
  const inner = representation('Inner', { n: f.integer() });
  const outer = f.object({
    kind: f.nullable(f.enum(['a', 'b'])),
    note: f.optional(f.string()),
    inner: f.nullable(inner),
    tags: f.map(f.string(), 'Tags by name.'),
  });
  const components = new SchemaComponents();
  t.deepEqual(outer.toJsonSchema(components), {
    type: 'object',
    properties: {
      kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
      note: { type: 'string' },
      inner: { anyOf: [{ $ref: '#/components/schemas/Inner' }, { type: 'null' }] },
      tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'Tags by name.' },
    },
    additionalProperties: false,
    required: ['kind', 'inner', 'tags'],
  });
  t.deepEqual(components.schemas.Inner, { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false, required: ['n'] });
  t.throws(() => representation('Inner', { m: f.string() }).toJsonSchema(components), { message: /two different representations are named Inner/ });
});
