// The OpenAPI 3.1 document of /main/v1, built from the same RouteDefs the router mounts.
import { PRODUCT_VERSION } from '../../src/platform/config.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pagination.ts';
import type { RouteDef } from './route.ts';
import { MAX_URL_VALUE } from './input-guards.ts';
import { objectMembers, toJsonSchema, type JsonSchema } from './yup-to-json-schema.ts';

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
    'Retry-After': { description: 'Seconds until the credential may call again.', schema: { type: 'integer' } },
    'WWW-Authenticate': { schema: { type: 'string', const: 'Basic realm="main"' } },
  },
  schemas: {
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: 'string', description: 'JSONPath of the offending body member, e.g. `$.name`.' },
        query_param: { type: 'string', description: 'The offending query parameter.' },
        details: {
          type: 'array',
          description: 'Every failed check, when there is more than one.',
          items: {
            type: 'object',
            required: ['message'],
            properties: { param: { type: 'string' }, query_param: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
  responses: {
    BadRequest: errorResponse('Invalid input, or a record that does not exist (or that the caller may not see): `code: not_found`.'),
    Unauthorized: errorResponse('Missing or wrong credentials.', { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') }),
    Forbidden: errorResponse('The credential lacks the permission for this operation.'),
    TooManyRequests: errorResponse('The credential exceeded its request rate.', { 'Retry-After': ref('headers', 'Retry-After') }),
  },
};

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

function successSchema(route: RouteDef): JsonSchema {
  const item: JsonSchema = route.response ? toJsonSchema(route.response) : { type: 'object' };
  if (route.paged === 'offset') {
    return {
      type: 'object', required: ['items', 'page', 'page_size', 'has_next_page'],
      properties: { items: { type: 'array', items: item }, page: { type: 'integer' }, page_size: { type: 'integer' }, has_next_page: { type: 'boolean' } },
    };
  }
  if (route.paged) {
    return {
      type: 'object', required: ['items', 'page_size'],
      properties: {
        items: { type: 'array', items: item },
        page_size: { type: 'integer', description: 'The applied page size.' },
        link_next: { type: 'string', description: 'Relative URI of the next page; absent on the last page.' },
      },
    };
  }
  return item;
}

function operation(route: RouteDef): Doc {
  const op: Doc = { tags: [route.tag], summary: route.summary, operationId: operationId(route) };
  if (route.description) op.description = route.description;
  if (route.deprecated) op.deprecated = true;
  if (route.extension) op['x-extension'] = true;
  const parameters = [...pathParameters(route.path), ...queryParameters(route)];
  if (parameters.length) op.parameters = parameters;
  const successHeaders: Doc = { ...VERSION_HEADER };
  if (route.body) {
    op.requestBody = { required: !route.bodyOptional, content: { 'application/json': { schema: toJsonSchema(route.body) } } };
    successHeaders['X-SVC-Unknown-Fields'] = ref('headers', 'X-SVC-Unknown-Fields');
  }
  if (route.paged === true) successHeaders.Link = ref('headers', 'Link');
  op.responses = {
    [String(route.status ?? 200)]: { description: 'OK', headers: successHeaders, content: { 'application/json': { schema: successSchema(route) } } },
    400: ref('responses', 'BadRequest'),
    401: ref('responses', 'Unauthorized'),
    403: ref('responses', 'Forbidden'),
    429: ref('responses', 'TooManyRequests'),
  };
  return op;
}

export function buildOpenApi(routes: RouteDef[], prefix: string): Doc {
  const paths: Record<string, Doc> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Charging network service: main API',
      version: PRODUCT_VERSION,
      description: 'The Admin API and App API under /main/v1. Every response carries X-SVC-Version; every client error is 400.',
    },
    servers: [{ url: prefix }],
    security: [{ basicAuth: [] }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: COMPONENTS,
  };
}
