import test from 'ava';
import { request as httpRequest } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let html: string;
let headers: Record<string, string>;
test.before(async () => {
  app = await startTestApp();
  const page = await app.request('GET', '/graphql', { auth: null, headers: { accept: 'text/html' } });
  html = String(page.body);
  headers = Object.fromEntries(page.headers);
});
test.after.always(async () => { await app?.close(); });

/** Every URL the page names: src/href attributes, and quoted paths in its inline scripts (the Monaco workers). */
function referencedUrls(page: string): string[] {
  const urls = new Set<string>();
  for (const match of page.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)) urls.add(match[1]);
  for (const match of page.matchAll(/["'](\/[^"'\s]*)["']/g)) urls.add(match[1]);
  return [...urls];
}

/** A request whose path goes out as written (fetch would resolve `..` itself). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

test('the GraphiQL page references only assets of the service, and each one answers', async (t) => {
  t.regex(html, /YogaGraphiQL\.renderYogaGraphiQL/);
  t.notRegex(html, /https?:|\/\/[a-z0-9]/i, 'no external (or protocol-relative) URL');
  const urls = referencedUrls(html);
  const types: Record<string, RegExp> = { css: /^text\/css/, js: /^text\/javascript/, svg: /^image\/svg\+xml/ };
  t.deepEqual(urls.map((url) => url.split('.').pop()).sort(), ['css', 'js', 'js', 'js', 'js', 'svg']);
  for (const label of ['editorWorkerService', 'json', 'graphql']) t.regex(html, new RegExp(`"${label}":"/graphql/assets/`), `the ${label} worker`);
  for (const url of urls) {
    const resolved = new URL(url, `${app.url}/graphql`);
    t.is(resolved.origin, new URL(app.url).origin, url);
    const response = await fetch(resolved);
    const body = await response.arrayBuffer();
    t.is(response.status, 200, url);
    t.true(body.byteLength > 0, url);
    t.regex(response.headers.get('content-type') ?? '', types[url.split('.').pop()!], url);
    t.regex(response.headers.get('cache-control') ?? '', /immutable/, url);
  }
});

test('the page is framed by no other page and read as the HTML it is (found by probing: it had neither header)', (t) => {
  t.like(headers, { 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' });
});

test('assets need no credentials; HEAD works', async (t) => {
  const css = referencedUrls(html).find((url) => url.endsWith('.css'))!;
  const response = await fetch(`${app.url}${css}`, { method: 'HEAD' });
  t.is(response.status, 200);
  t.true(Number(response.headers.get('content-length')) > 100_000);
  t.is(response.headers.get('www-authenticate'), null);
});

test('only the listed files are served: other names, other versions, traversal and other methods are refused', async (t) => {
  const css = referencedUrls(html).find((url) => url.endsWith('.css'))!;
  const prefix = css.slice(0, css.lastIndexOf('/'));
  for (const path of [
    `${prefix}/yoga-graphiql.umd.js`, `${prefix}/yoga-graphiql.es.js`, `${prefix}/monacoeditorwork/json.worker.bundle.js`,
    `${prefix}/../../../package.json`, `${prefix}/..%2f..%2fpackage.json`, `${prefix}/%2e%2e/%2e%2e/package.json`,
    `${prefix}/__proto__`, `${prefix}/constructor`, `${prefix}/`, '/graphql/assets/0.0.0/graphiql.css', '/graphql/assets/graphiql.css',
  ]) {
    const response = await rawGet(path);
    t.is(response.status, 404, path);
    t.notRegex(response.body, /"version"|"dependencies"/, path);
  }
  const post = await fetch(`${app.url}${css}`, { method: 'POST' });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET, HEAD');
});

test('GraphiQL opens with a note on passing a credential and an Authorization header ready to fill in, not stored', async (t) => {
  const options = JSON.parse(/renderYogaGraphiQL\(root, (\{.*\})\);<\/script>/.exec(html)![1]!);
  t.deepEqual(JSON.parse(options.headers), { Authorization: 'Basic <base64 of public_id:secret>' });
  t.is(options.defaultEditorToolsVisibility, 'headers', 'the headers editor is open');
  t.false(options.shouldPersistHeaders, 'a credential typed in is not kept in the browser');
  t.regex(options.query, /^# Every request needs a credential, the same as REST \(HTTP Basic\)\. Fill in the$/m);
  t.regex(options.query, /printf '%s' 'public_id:secret' \| base64/);
  // The example of the note runs once the header holds a credential.
  const example = /^#   (\{ administrations .*\})$/m.exec(options.query)![1]!;
  const answer = await app.request('POST', '/graphql', { body: { query: example } });
  t.is(answer.status, 200);
  t.deepEqual(answer.body.errors, undefined);
  t.true(Array.isArray(answer.body.data.administrations));
  // Without it: 401, as the note says.
  t.is((await app.request('POST', '/graphql', { body: { query: example }, auth: null })).status, 401);
});
