import { request as httpRequest } from 'node:http';
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
let customerPath: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  customerPath = `/main/v1/customer/${(await createCustomer(app, adminId)).id}`;
});
test.after.always(async () => { await app?.close(); });

const post = (raw: string | Buffer, headers?: Record<string, string>) => app.request('POST', customerPath, { raw, headers });

test('malformed JSON is 400 invalid_json with a param', async (t) => {
  const response = await post('{"name": "a",');
  t.is(response.status, 400);
  t.is(response.body.code, 'invalid_json');
  t.is(typeof response.body.param, 'string');
  const trailing = await post('{"name": "a"} x');
  t.is(trailing.status, 400);
  t.is(trailing.body.param, '$');
});

test('a duplicate member is 400 naming its path', async (t) => {
  const response = await post('{"name":"a","name":"b"}');
  t.is(response.status, 400);
  t.is(response.body.param, '$.name');
  const nested = await post('{"custom_fields":{"x":1,"x":2}}');
  t.is(nested.body.param, '$.custom_fields.x');
});

test('numbers beyond double precision are 400', async (t) => {
  for (const number of ['12345678901234567890', '-9007199254740993', '1e400', '-1e999', '1e-400', '0.1000000000000000000001']) {
    const response = await post(`{"custom_fields":{"n":${number}}}`);
    t.is(response.status, 400, number);
    t.is(response.body.param, '$.custom_fields.n', number);
  }
  const safe = await post('{"custom_fields":{"n":9007199254740991,"f":0.1,"e":1.5e3}}');
  t.is(safe.status, 200);
  t.deepEqual(safe.body.custom_fields, { n: 9007199254740991, f: 0.1, e: 1500 });
});

test('nesting deeper than the limit is 400, also far beyond it', async (t) => {
  const deep = (levels: number) => `{"custom_fields":${'['.repeat(levels)}${']'.repeat(levels)}}`;
  const response = await post(deep(40));
  t.is(response.status, 400);
  t.is(response.body.code, 'invalid_json');
  const huge = await post(deep(200_000));
  t.is(huge.status, 400);
});

test('invalid UTF-8 is 400', async (t) => {
  const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const response = await post(bytes);
  t.is(response.status, 400);
  t.is(response.body.code, 'invalid_utf8');
  t.is(response.body.param, '$');
  const surrogate = await post('{"name":"\\ud800"}');
  t.is(surrogate.status, 400);
  t.is(surrogate.body.param, '$.name');
});

test('a body over 1 MiB is 400, with a Content-Length', async (t) => {
  const response = await post(`{"name":"${'a'.repeat(1024 * 1024)}"}`);
  t.is(response.status, 400);
  t.is(response.body.code, 'body_too_large');
  t.is(response.headers.get('x-svc-version'), '4.9.0');
});

test('a body over 1 MiB is 400, chunked without a Content-Length', async (t) => {
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${app.url}${customerPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${app.admin.publicId}:${app.admin.secret}`).toString('base64')}`,
      },
    }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write('{"name":"');
    const chunk = 'a'.repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < 40) {
        sent++;
        if (!req.write(chunk)) { req.once('drain', pump); return; }
      }
      req.end('"}');
    };
    pump();
  });
  t.is(status, 400);
  t.is(JSON.parse(body).code, 'body_too_large');
});

test('a JSON array or scalar as body is 400 with param $', async (t) => {
  for (const raw of ['[]', '[{"name":"a"}]', '"name"', 'null', '12']) {
    const response = await post(raw);
    t.is(response.status, 400, raw);
    t.is(response.body.param, '$', raw);
  }
});

test('a body that is not JSON by content type is 400', async (t) => {
  const form = await post('name=a', { 'content-type': 'application/x-www-form-urlencoded' });
  t.is(form.status, 400);
  t.is(form.body.code, 'unsupported_content_type');
  const textPlain = await post('{"name":"a"}', { 'content-type': 'text/plain' });
  t.is(textPlain.status, 400);
  const charset = await post('{"name":"With charset"}', { 'content-type': 'application/json; charset=utf-8' });
  t.is(charset.status, 200);
  t.is(charset.body.name, 'With charset');
});

test('a body with a Content-Encoding is 400 and writes nothing (it was read as if it were not encoded)', async (t) => {
  // A customer of its own: the other tests of the file, running meanwhile, rename the shared one.
  const path = `/main/v1/customer/${(await createCustomer(app, adminId)).id}`;
  const before = (await app.request('GET', path)).body.name;
  for (const encoding of ['gzip', 'deflate', 'br', 'x-whatever']) {
    const encoded = await app.request('POST', path, { raw: '{"name":"Encoded"}', headers: { 'content-encoding': encoding } });
    t.is(encoded.status, 400, encoding);
    t.is(encoded.body.code, 'unsupported_content_type', encoding);
  }
  t.is((await app.request('GET', path)).body.name, before);
  t.is((await app.request('POST', path, { raw: '{"name":"Identity"}', headers: { 'content-encoding': 'identity' } })).status, 200);
});

test('a required body that is missing or empty is 400 with param $', async (t) => {
  const missing = await app.request('POST', customerPath);
  t.is(missing.status, 400);
  t.is(missing.body.param, '$');
  const blank = await post('  ');
  t.is(blank.status, 400);
  t.is(blank.body.param, '$');
});

test('a NUL character, which the database cannot store, is 400 with a param', async (t) => {
  const inValue = await post('{"name":"a\\u0000b"}');
  t.is(inValue.status, 400);
  t.is(inValue.body.param, '$.name');
  const inMember = await post('{"custom_fields":{"a\\u0000":"x"}}');
  t.is(inMember.status, 400);
  t.is(inMember.body.param, '$.custom_fields');
  const raw = await post(Buffer.from('{"name":"a\u0000b"}'));
  t.is(raw.status, 400);
});

test('a NUL character in the path or the query string is 400', async (t) => {
  const path = await app.request('GET', '/main/v1/customer/ext_ref.%00');
  t.is(path.status, 400);
  const query = await app.request('GET', '/main/v1/customer?admin_id=%00');
  t.is(query.status, 400);
  t.is(query.body.query_param, 'admin_id');
});
