// The OpenAPI 3.1 document of /main/v1, built from the same RouteDefs the router mounts.
import { PRODUCT_VERSION } from '../../src/platform/config.ts';
import { errorShape } from './error-shape.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, offsetPageOf, seekPageOf } from './pagination.ts';
import type { RouteDef } from './route.ts';
import { SchemaComponents, type Field } from './shape.ts';
import { MAX_URL_VALUE } from './input-guards.ts';
import { TAG_DESCRIPTIONS } from './openapi-tags.ts';
import { objectMembers, toJsonSchema } from './yup-to-json-schema.ts';

type Doc = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const VERSION_HEADER = { 'X-SVC-Version': ref('headers', 'X-SVC-Version') };

const COMPONENTS = {
  securitySchemes: {
    basicAuth: { type: 'http', scheme: 'basic', description: 'HTTP Basic: <PUBLIC_ID>:<SECRET>. App API paths need an `app` credential.' },
  },
  headers: {
    'X-SVC-Version': { description: 'The product version of the service.', schema: { type: 'string' } },
    'X-SVC-Unknown-Fields': {
      description: 'JSONPaths of request body members the endpoint does not know (ignored), comma separated.',
      schema: { type: 'string' },
    },
    Link: { description: 'The next page: `<link_next>; rel="next"` (absent on the last page).', schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds after which the request may be tried again.', schema: { type: 'integer' } },
    'WWW-Authenticate': { schema: { type: 'string', const: 'Basic realm="main"' } },
  },
  responses: {
    BadRequest: errorResponse('Invalid input, or a record that does not exist (or that the caller may not see): `code: not_found`.'),
    Unauthorized: errorResponse('Missing or wrong credentials.', { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') }),
    Forbidden: errorResponse('The credential lacks the permission for this operation.'),
    TooManyRequests: errorResponse('Too many requests (the credential\'s rate, or failed authentication attempts).',
      { 'Retry-After': ref('headers', 'Retry-After') }),
    ServiceUnavailable: errorResponse('The database cannot be reached or did not answer within the request\'s bound (5 s); the service recovers by itself.',
      { 'Retry-After': ref('headers', 'Retry-After') }),
  },
};

/**
 * The shared error answers by status. 404 and 405 are the answers to paths and methods outside the
 * document (the info description says so): the Error body, named by no operation.
 */
export const ERROR_RESPONSES: Record<string, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 429: 'TooManyRequests', 503: 'ServiceUnavailable',
};
const OPERATION_ERRORS = ['400', '401', '403', '429', '503'];

function errorResponse(description: string, headers: Doc = {}): Doc {
  return {
    description,
    headers: { ...VERSION_HEADER, ...headers },
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

function operationId(route: RouteDef): string {
  const words = route.path.split('/').filter(Boolean).flatMap((segment) => {
    const param = /^:(\w+)$/.exec(segment);
    return param ? ['by', ...param[1].split('_')] : segment.split(/[^A-Za-z0-9]+/);
  });
  return route.method + words.filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function pathParameters(path: string): Doc[] {
  return [...path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string', maxLength: MAX_URL_VALUE } }));
}

function queryParameters(route: RouteDef): Doc[] {
  const params: Doc[] = route.query
    ? objectMembers(route.query).map((member) => ({ name: member.name, in: 'query', required: member.required, schema: member.schema }))
    : [];
  if (route.paged === 'offset') {
    params.push(
      { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
    );
  } else if (route.paged) {
    params.push(
      { name: 'after', in: 'query', description: 'Items strictly after this key (the key of the last item received).', schema: { type: 'string', maxLength: MAX_URL_VALUE } },
      {
        name: 'page_size', in: 'query', description: 'Values outside the range are clamped; the applied value is returned.',
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
      },
    );
    if (route.createdGt) {
      params.push({
        name: 'created_gt', in: 'query', schema: { type: 'string', format: 'date-time' },
        description: 'First request only, and alone: answers no items and a link_next to the first item created after this moment.',
      });
    }
  }
  return params;
}

function successShape(route: RouteDef): Field<unknown> {
  if (route.paged === 'offset') return offsetPageOf(route.response);
  if (route.paged) return seekPageOf(route.response);
  return route.response;
}

function operation(route: RouteDef, components: SchemaComponents): Doc {
  const op: Doc = { tags: [route.tag], summary: route.summary, operationId: operationId(route) };
  if (route.description) op.description = route.description;
  if (route.deprecated) op.deprecated = true;
  if (route.extension) op['x-extension'] = true;
  const parameters = [...pathParameters(route.path), ...queryParameters(route)];
  if (parameters.length) op.parameters = parameters;
  const successHeaders: Doc = { ...VERSION_HEADER };
  if (route.consumes) {
    op.requestBody = { required: true, content: Object.fromEntries(route.consumes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) };
  }
  if (route.body) {
    op.requestBody = { required: !route.bodyOptional, content: { ...((op.requestBody as Doc | undefined)?.content as Doc | undefined), 'application/json': { schema: toJsonSchema(route.body) } } };
    successHeaders['X-SVC-Unknown-Fields'] = ref('headers', 'X-SVC-Unknown-Fields');
  }
  if (route.bodyItems) {
    const { schema, max } = route.bodyItems;
    op.requestBody = { required: true, content: { 'application/json': { schema: { type: 'array', minItems: 1, maxItems: max, items: toJsonSchema(schema) } } } };
    successHeaders['X-SVC-Unknown-Fields'] = ref('headers', 'X-SVC-Unknown-Fields');
  }
  if (route.paged === true) successHeaders.Link = ref('headers', 'Link');
  const schema = successShape(route).toJsonSchema(components);
  const content = route.produces
    ? Object.fromEntries(route.produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]))
    : { 'application/json': { schema } };
  op.responses = {
    [String(route.status ?? 200)]: { description: 'OK', headers: successHeaders, content },
    ...Object.fromEntries(OPERATION_ERRORS.map((status) => [status, ref('responses', ERROR_RESPONSES[status])])),
  };
  return op;
}

export function buildOpenApi(routes: RouteDef[], prefix: string): Doc {
  const components = new SchemaComponents();
  errorShape.toJsonSchema(components);
  const paths: Record<string, Doc> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = operation(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Charging network service: main API',
      version: PRODUCT_VERSION,
      description: 'The Admin API and App API under /main/v1. Every response carries X-SVC-Version and X-Request-Id; every client error '
        + 'is 400. A path outside this document (a removed operation, a trailing slash) answers 404 `route_not_found`, and a method a '
        + 'path does not offer 405 `method_not_allowed` with `Allow`, both with the Error body; a record that does not exist is 400 '
        + '`not_found`. Beside /main/v1, without a credential: GET /main/version, /main/health/live and /main/health/ready; '
        + 'GET /main/metrics (Prometheus text) takes a credential without an administration limit.',
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: prefix }],
    security: [{ basicAuth: [] }],
    // A tag without a description fails the lint (test/rest/rails/openapi-lint.test.ts).
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name })),
    paths,
    components: { ...COMPONENTS, schemas: components.schemas },
  };
}
