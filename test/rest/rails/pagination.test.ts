import test from 'ava';
import { startTestApp, type Response, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { uuidv7 } from '../../../src/platform/ids.ts';

// Serial: created_gt must stand alone, so it sees every customer of this file's database.
let app: TestApp;
let adminId: string;
let ids: string[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const list = (query: string) => app.request('GET', `/main/v1/customer?${query}`);

test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  ids = [];
  for (let i = 0; i < 7; i++) ids.push((await createCustomer(app, adminId)).id);
  const other = (await createAdministration(app)).id;
  await createCustomer(app, other);
  await createCustomer(app, other);
});
test.after.always(async () => { await app?.close(); });

test.serial('the default page_size is 500 and the last page has no link_next', async (t) => {
  const response = await list(`admin_id=${adminId}`);
  t.is(response.status, 200);
  t.is(response.body.page_size, 500);
  t.deepEqual(response.body.items.map((c: any) => c.id), ids);
  t.false('link_next' in response.body);
  t.is(response.headers.get('link'), null);
});

test.serial('page_size is clamped to 1..1000 and the applied value returned', async (t) => {
  for (const [asked, applied] of [['0', 1], ['-3', 1], ['5000', 1000], ['99999999999999999999999', 1000], ['2', 2]] as const) {
    const response = await list(`admin_id=${adminId}&page_size=${asked}`);
    t.is(response.status, 200, asked);
    t.is(response.body.page_size, applied, asked);
    t.is(response.body.items.length, Math.min(applied, ids.length), asked);
  }
});

test.serial('a page_size that is not an integer is 400 naming it', async (t) => {
  for (const asked of ['1.5', 'abc', '', '10abc', '1e2']) {
    const response = await list(`page_size=${asked}`);
    t.is(response.status, 400, asked);
    t.is(response.body.query_param, 'page_size', asked);
  }
  const twice = await list('page_size=1&page_size=2');
  t.is(twice.status, 400);
  t.is(twice.body.query_param, 'page_size');
});

test.serial('after returns the items strictly after it', async (t) => {
  const response = await list(`admin_id=${adminId}&after=${ids[2]}`);
  t.is(response.status, 200);
  t.deepEqual(response.body.items.map((c: any) => c.id), ids.slice(3));
  const last = await list(`admin_id=${adminId}&after=${ids[6]}`);
  t.deepEqual(last.body.items, []);
  t.false('link_next' in last.body);
});

test.serial('an after that names no item is 400 naming it', async (t) => {
  for (const after of [uuidv7(), 'not-an-id', '']) {
    const response = await list(`after=${after}`);
    t.is(response.status, 400, after);
    t.is(response.body.query_param, 'after', after);
  }
});

test.serial('link_next carries filters and page_size, matches the Link header, and pages through every item once', async (t) => {
  const exact = await list(`admin_id=${adminId}&page_size=7`);
  t.false('link_next' in exact.body, 'no link_next when the page holds the rest exactly');

  const seen: string[] = [];
  let next: string | undefined = `/main/v1/customer?admin_id=${adminId}&page_size=3`;
  let pages = 0;
  while (next) {
    const response: Response = await app.request('GET', next);
    t.is(response.status, 200);
    t.is(response.body.page_size, 3);
    seen.push(...response.body.items.map((c: any) => c.id));
    next = response.body.link_next;
    if (next) {
      t.is(response.headers.get('link'), `<${next}>; rel="next"`);
      const url = new URL(next, app.url);
      t.is(url.pathname, '/main/v1/customer');
      t.is(url.searchParams.get('admin_id'), adminId);
      t.is(url.searchParams.get('page_size'), '3');
      t.is(url.searchParams.get('after'), seen[seen.length - 1]);
    } else {
      t.is(response.headers.get('link'), null);
    }
    pages++;
  }
  t.is(pages, 3);
  t.deepEqual(seen, ids);
});

test.serial('created_gt answers no items and a link_next after the first item created later', async (t) => {
  await sleep(5);
  const moment = new Date().toISOString();
  await sleep(5);
  const first = await createCustomer(app, adminId);
  const second = await createCustomer(app, adminId);

  const response = await list(`created_gt=${encodeURIComponent(moment)}`);
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(response.body.items, []);
  const next = new URL(response.body.link_next, app.url);
  t.is(next.searchParams.get('after'), first.id);
  t.is(response.headers.get('link'), `<${response.body.link_next}>; rel="next"`);

  const following = await app.request('GET', response.body.link_next);
  t.deepEqual(following.body.items.map((c: any) => c.id), [second.id], 'the first item itself is excluded');

  const offset = await list(`created_gt=${encodeURIComponent(moment.replace('Z', '+02:00'))}`);
  t.is(offset.status, 200, 'any offset is accepted');
});

test.serial('created_gt with another parameter, with nothing after it, or malformed is 400', async (t) => {
  const moment = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
  for (const query of [`created_gt=${moment}&page_size=10`, `created_gt=${moment}&after=${ids[0]}`, `created_gt=${moment}&admin_id=${adminId}`]) {
    const response = await list(query);
    t.is(response.status, 400, query);
    t.is(response.body.query_param, 'created_gt', query);
  }
  await sleep(5);
  const future = await list(`created_gt=${encodeURIComponent(new Date().toISOString())}`);
  t.is(future.status, 400);
  t.is(future.body.query_param, 'created_gt');
  for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '']) {
    const response = await list(`created_gt=${encodeURIComponent(bad)}`);
    t.is(response.status, 400, bad);
    t.is(response.body.query_param, 'created_gt', bad);
  }
});
