// The console's files as the service serves them (src/platform/http/static-site.ts): content
// types, the SPA fallback to index.html, a year's cache for hashed assets and none for the page.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import Koa from 'koa';
import { staticSite } from '../../src/platform/http/static-site.ts';

async function serve(dir: string) {
  const app = new Koa();
  app.use(staticSite({ prefix: '/console', dir, notBuilt: 'not built' }));
  app.use((ctx) => { ctx.status = 418; });
  const server = await new Promise<ReturnType<Koa['listen']>>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

test('files, SPA fallback, cache headers, no escape from the folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(dir, '..', 'secret.txt'), 'secret');
  const { url, close } = await serve(dir);
  try {
    const page = await fetch(`${url}/console/`);
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.is(page.headers.get('cache-control'), 'no-cache');
    t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);

    const deep = await fetch(`${url}/console/customers/ext_ref.CUST-1001?x=1`);
    t.is(deep.status, 200, 'a client-side route gets the page');
    t.regex(await deep.text(), /<title>console<\/title>/);

    const script = await fetch(`${url}/console/assets/index-abc123.js`);
    t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    t.is(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.is((await fetch(`${url}/console/assets/index-abc123.css`)).headers.get('content-type'), 'text/css; charset=utf-8');

    t.is((await fetch(`${url}/console/assets/index-old.js`)).status, 404, 'a missing asset is not the page');
    // Found by probing: the page asked for below assets/ was cached for a year.
    const pageAsAsset = await fetch(`${url}/console/assets/..%2findex.html`);
    t.is(pageAsAsset.headers.get('cache-control'), 'no-cache');
    t.not(await (await fetch(`${url}/console/%2e%2e/secret.txt`)).text(), 'secret');
    t.not(await (await fetch(`${url}/console/..%2fsecret.txt`)).text(), 'secret');
    const bare = await fetch(`${url}/console`, { redirect: 'manual' });
    t.is(bare.status, 302);
    t.is(bare.headers.get('location'), '/console/');
    t.is((await fetch(`${url}/console/`, { method: 'POST' })).status, 405);
    t.is((await fetch(`${url}/consoles`)).status, 418, 'other paths pass through');
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(dir, '..', 'secret.txt'), { force: true });
  }
});

test('before a build: 503 with what to run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'console-empty-'));
  const { url, close } = await serve(dir);
  try {
    const response = await fetch(`${url}/console/`);
    t.is(response.status, 503);
    t.is(await response.text(), 'not built');
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
});
