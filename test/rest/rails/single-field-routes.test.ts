import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Router from '@koa/router';
import test from 'ava';
import Koa from 'koa';
import type { Actor } from '../../../src/access/actor.ts';
import { jsonBody } from '../../../src/platform/http/body.ts';
import { errorMiddleware } from '../../../rest/rails/errors.ts';
import { buildOpenApi } from '../../../rest/rails/openapi.ts';
import { mountRoutes } from '../../../rest/rails/route.ts';
import { text } from '../../../src/platform/input-schemas.ts';
import { representation, t as f, type Infer } from '../../../rest/rails/shape.ts';
import { singleFieldRoutes } from '../../../rest/rails/single-field-routes.ts';

// A resource of one record, kept in memory: the helper only needs a merge-update.
const record: Record<string, unknown> = { id: 'L1', valid_from: null, valid_until: null, external_updated_at: null };
const response = representation('TestRecord', {
  id: f.string(), valid_from: f.nullable(f.timestamp()), valid_until: f.nullable(f.timestamp()),
  note: f.optional(f.nullable(f.string())), external_updated_at: f.nullable(f.timestamp()),
});
const patches: Record<string, unknown>[] = [];
const routes = singleFieldRoutes({
  path: '/msp-token-link/:id',
  tag: 'Test',
  fields: { valid_from: { delete: true }, valid_until: { delete: true }, note: { schema: text(40).nullable() } },
  response,
  update: async ({ params }, patch) => {
    patches.push({ id: params.id, ...patch });
    Object.assign(record, patch);
    return { ...record } as Infer<typeof response>;
  },
});

let server: Server;
let url: string;
let role: Actor['role'] = 'admin';
test.before(async () => {
  const app = new Koa();
  const router = new Router();
  mountRoutes(router, routes);
  app.use(errorMiddleware);
  app.use((ctx, next) => {
    ctx.state.actor = { credentialId: null, publicId: 'test', role, scope: { all: true, ids: [] }, rateLimitPerMinute: null } satisfies Actor;
    return next();
  });
  app.use(jsonBody);
  app.use(router.routes());
  server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(() => new Promise<void>((resolve) => { server?.close(() => resolve()); }));

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method, body: body === undefined ? undefined : JSON.stringify(body), headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
  return { status: response.status, body: await response.json() as any, headers: response.headers };
}

test.serial('one PUT per field, DELETE where asked, all deprecated', (t) => {
  t.deepEqual(routes.map((r) => `${r.method} ${r.path}`), [
    'put /msp-token-link/:id/valid-from', 'delete /msp-token-link/:id/valid-from',
    'put /msp-token-link/:id/valid-until', 'delete /msp-token-link/:id/valid-until',
    'put /msp-token-link/:id/note',
  ]);
  t.true(routes.every((r) => r.deprecated));
  const doc = buildOpenApi(routes, '/main/v1') as any;
  t.true(doc.paths['/msp-token-link/{id}/valid-until'].delete.deprecated);
  t.true(doc.paths['/msp-token-link/{id}/valid-until'].put.deprecated);
});

test.serial('PUT is a merge-update naming only the field, with an optional external_updated_at', async (t) => {
  patches.length = 0;
  const set = await call('PUT', '/msp-token-link/L1/valid-until', { valid_until: '2026-05-01T00:00:00+02:00' });
  t.is(set.status, 200, JSON.stringify(set.body));
  t.is(set.body.valid_until, '2026-05-01T00:00:00+02:00');
  const withStamp = await call('PUT', '/msp-token-link/L1/valid-from', { valid_from: '2026-01-01T00:00:00Z', external_updated_at: '2026-01-02T00:00:00Z', valid_until: null });
  t.is(withStamp.status, 200);
  t.is(withStamp.headers.get('x-svc-unknown-fields'), '$.valid_until', 'other fields are not passed on');
  t.deepEqual(patches, [
    { id: 'L1', valid_until: '2026-05-01T00:00:00+02:00' },
    { id: 'L1', valid_from: '2026-01-01T00:00:00Z', external_updated_at: '2026-01-02T00:00:00Z' },
  ]);
  t.is(record.valid_until, '2026-05-01T00:00:00+02:00');
  const note = await call('PUT', '/msp-token-link/L1/note', { note: 'hello' });
  t.is(note.body.note, 'hello', 'a field with a schema of its own');
  const tooLong = await call('PUT', '/msp-token-link/L1/note', { note: 'x'.repeat(41) });
  t.is(tooLong.status, 400);
  t.is(tooLong.body.param, '$.note');
});

test.serial('DELETE sets the field to null, with or without a body', async (t) => {
  patches.length = 0;
  const bare = await call('DELETE', '/msp-token-link/L1/valid-until');
  t.is(bare.status, 200, JSON.stringify(bare.body));
  t.is(bare.body.valid_until, null);
  const stamped = await call('DELETE', '/msp-token-link/L1/valid-from', { external_updated_at: '2026-02-01T00:00:00Z' });
  t.is(stamped.status, 200);
  t.deepEqual(patches, [{ id: 'L1', valid_until: null }, { id: 'L1', external_updated_at: '2026-02-01T00:00:00Z', valid_from: null }]);
});

test.serial('a missing or malformed value is 400 with a param; readonly callers get 403', async (t) => {
  patches.length = 0;
  const missing = await call('PUT', '/msp-token-link/L1/valid-until', {});
  t.is(missing.status, 400);
  t.is(missing.body.param, '$.valid_until');
  const malformed = await call('PUT', '/msp-token-link/L1/valid-until', { valid_until: 'tomorrow' });
  t.is(malformed.status, 400);
  t.is(malformed.body.param, '$.valid_until');
  const badStamp = await call('DELETE', '/msp-token-link/L1/valid-until', { external_updated_at: 12 });
  t.is(badStamp.status, 400);
  t.is(badStamp.body.param, '$.external_updated_at');
  role = 'readonly';
  try {
    const forbidden = await call('DELETE', '/msp-token-link/L1/valid-until');
    t.is(forbidden.status, 403);
  } finally {
    role = 'admin';
  }
  t.deepEqual(patches, []);
});
