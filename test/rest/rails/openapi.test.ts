import Router from '@koa/router';
import test from 'ava';
import * as yup from 'yup';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
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
  // Strings without a maximum of their own carry the rails' 10,000 (rest/rails/input-guards.ts).
  t.deepEqual(body.properties.country, { type: ['string', 'null'], pattern: '^[A-Za-z]{2}$', maxLength: 10_000 });
  t.deepEqual(body.properties.entity_type, { type: ['string', 'null'], enum: ['person', 'organisation', null] });
  t.is(body.properties.external_updated_at.format, 'date-time');
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
