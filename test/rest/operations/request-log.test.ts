// Every answer carries X-Request-Id and writes one JSON log line (decisions: "Running"): a caller's
// id of at most 128 characters of [A-Za-z0-9._-] comes back, anything else is replaced by a UUIDv7;
// the line names time, request id, method, route pattern, status, duration and the credential's
// public id, never a secret or a body. A 500 logs its stack with the request id.
import test from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { errorMiddleware } from '../../../rest/rails/errors.ts';
import { requestLog } from '../../../src/platform/http/request-log.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { logLines } from '../../helpers/log.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function lineOf(requestId: string): Record<string, any> {
  const lines = logLines().filter((line) => line.request_id === requestId && typeof line.status === 'number');
  if (lines.length !== 1) throw new Error(`${lines.length} request lines for ${requestId}`);
  return lines[0]!;
}

test('a valid X-Request-Id comes back and names the request\'s log line', async (t) => {
  const id = `client-${process.pid}.A_1`;
  const customer = await createCustomer(app, (await createAdministration(app)).id);
  const r = await app.request('GET', `/main/v1/customer/${customer.id}`, { headers: { 'x-request-id': id } });
  t.is(r.status, 200);
  t.is(r.headers.get('x-request-id'), id);
  const line = lineOf(id);
  t.like(line, { level: 'info', method: 'GET', route: '/main/v1/customer/{id}', status: 200, public_id: app.admin.publicId });
  t.regex(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.is(typeof line.duration_ms, 'number');
});

test('a missing or unusable id is replaced by a UUIDv7 that appears in the log line', async (t) => {
  for (const given of [undefined, '', 'x'.repeat(129), 'has space', 'semi;colon', 'é']) {
    const headers: Record<string, string> = given === undefined ? {} : { 'x-request-id': given };
    const r = await app.request('GET', '/main/version', { headers });
    const id = r.headers.get('x-request-id')!;
    t.regex(id, UUIDV7, String(given));
    t.like(lineOf(id), { method: 'GET', route: '/main/version', status: 200, public_id: null });
  }
  const longest = 'a'.repeat(128);
  t.is((await app.request('GET', '/main/version', { headers: { 'x-request-id': longest } })).headers.get('x-request-id'), longest);
});

test('errors carry the id too: 401, 404 (no route), GraphQL; no line holds a secret or a body', async (t) => {
  const wrong = await app.request('GET', '/main/v1/customer', { auth: { publicId: app.admin.publicId, secret: 'a-wrong-secret-123' } });
  t.is(wrong.status, 401);
  t.like(lineOf(wrong.headers.get('x-request-id')!), { status: 401, route: '/main/v1/customer', public_id: null });
  const missing = await app.request('GET', '/main/v1/nothing-here');
  t.like(lineOf(missing.headers.get('x-request-id')!), { status: 404, route: null });
  const gql = await app.request('POST', '/graphql', { body: { query: '{ administrations(first: 1) { edges { node { id } } } }' } });
  t.is(gql.status, 200);
  t.like(lineOf(gql.headers.get('x-request-id')!), { method: 'POST', route: '/graphql', status: 200, public_id: app.admin.publicId });
  await createCustomer(app, (await createAdministration(app)).id, { name: 'a-name-in-a-body-9f3e' });
  const text = JSON.stringify(logLines());
  t.false(text.includes('a-name-in-a-body-9f3e'), 'no body');
  t.false(text.includes(app.admin.secret), 'no secret');
  t.false(text.includes('a-wrong-secret-123'), 'not even a wrong one');
});

test('an unexpected error is one 500 answer and log lines with its stack and the request id', async (t) => {
  const koa = new Koa();
  koa.use(requestLog({ routeOf: () => '/boom', callerOf: () => null }));
  koa.use(errorMiddleware);
  koa.on('error', (error) => {
    // What rest/app.ts does: the logger adds the request id of the request it runs for.
    return import('../../../src/platform/log.ts').then(({ logger }) => logger().error({ err: error }, 'internal error'));
  });
  koa.use(() => { throw new TypeError('the handler broke'); });
  const server = koa.listen(0, '127.0.0.1');
  t.teardown(() => { server.close(); });
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`, { headers: { 'x-request-id': 'boom-1' } });
  t.is(response.status, 500);
  t.is(response.headers.get('x-request-id'), 'boom-1');
  t.deepEqual(await response.json(), { code: 'internal_error', message: 'an internal error occurred' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const lines = logLines().filter((line) => line.request_id === 'boom-1');
  const error = lines.find((line) => line.err);
  t.truthy(error);
  t.is(error!.err.type, 'TypeError');
  t.regex(error!.err.stack, /^TypeError: the handler broke\n\s+at /);
  t.like(lines.find((line) => line.status === 500), { level: 'error', route: '/boom' });
});
