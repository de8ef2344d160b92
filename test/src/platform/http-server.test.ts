import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { closeGracefully, listen } from '../../../src/platform/http-server.ts';
import { StartupError } from '../../../src/platform/startup-error.ts';

function get(port: number, path: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('closing stops accepting, lets the request in flight finish and closes idle keep-alive connections', async (t) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => { arrived = resolve; });
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/slow') {
      arrived();
      await released;
    }
    ctx.body = 'done';
  });
  const server = await listen(app, 0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  const keepAlive = new Agent({ keepAlive: true });
  t.is((await get(port, '/fast', keepAlive)).status, 200, 'leaves an idle keep-alive connection');

  const slow = get(port, '/slow');
  await inFlight;
  let closed = false;
  const closing = closeGracefully(server).then(() => { closed = true; });
  await t.throwsAsync(get(port, '/fast'), { code: 'ECONNREFUSED' }, 'no new connections');
  t.false(closed, 'waits for the request in flight');
  release();
  t.deepEqual(await slow, { status: 200, body: 'done' });
  await closing;
  keepAlive.destroy();
});

test('a port in use is a StartupError naming the port and PORT', async (t) => {
  const first = await listen(new Koa(), 0, '127.0.0.1');
  t.teardown(() => first.close());
  const port = (first.address() as AddressInfo).port;
  const error = await t.throwsAsync(listen(new Koa(), port, '127.0.0.1'), { instanceOf: StartupError });
  t.is(error?.message, `port ${port} on 127.0.0.1 is in use: stop what listens there or choose another port with PORT`);
});
