import test from 'ava';
import { Authenticator, type AuthenticatorOptions } from '../../../src/access/authenticate.service.ts';
import { Credential } from '../../../src/access/credential.entity.ts';
import { verifySecret } from '../../../src/access/secret-hash.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';

const PATH = '/main/v1/administration';

/** An app whose secret checks are counted (and may be held), on a clock the test moves. */
async function countedApp(options: AuthenticatorOptions = {}) {
  const counted = { checks: 0, hold: null as Promise<void> | null, clock: Date.now() };
  const app = await startTestApp({
    authenticator: (orm) => new Authenticator(orm, {
      ...options,
      now: () => counted.clock,
      verify: async (secret, stored) => {
        counted.checks++;
        if (counted.hold) await counted.hold;
        return verifySecret(secret, stored);
      },
    }),
  });
  return { app, counted };
}

function basic(userAndSecret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(userAndSecret).toString('base64')}` };
}

const wrong = (auth: Auth): Auth => ({ publicId: auth.publicId, secret: 'not-the-secret-at-all' });

let plain: TestApp;
test.before(async () => { plain = await startTestApp(); });
test.after.always(async () => { await plain?.close(); });

test('a NUL or another control character in the Basic user id is 401, never a database error', async (t) => {
  for (const control of ['\u0000', '\u0001', '\t', '\n', '\u001f', '\u007f']) {
    for (const user of [`${plain.admin.publicId}${control}`, `a${control}b`, control]) {
      const headers = basic(`${user}:${plain.admin.secret}`);
      const rest = await plain.request('GET', PATH, { auth: null, headers });
      t.is(rest.status, 401, JSON.stringify(user));
      t.is(rest.body.code, 'unauthorized');
      t.is(rest.headers.get('www-authenticate'), 'Basic realm="main"');
      const graphql = await plain.request('POST', '/graphql', { auth: null, headers, body: { query: '{ __typename }' } });
      t.is(graphql.status, 401, JSON.stringify(user));
    }
  }
  t.is((await plain.request('GET', PATH)).status, 200);
});

test('repeated wrong secrets for a public id are 429 with Retry-After and no secret check; the right secret keeps working', async (t) => {
  const { app, counted } = await countedApp({ failuresPerPublicId: 3, failuresPerAddress: 1000 });
  t.teardown(() => app.close());
  const victim = await app.credential({ role: 'admin' });
  t.is((await app.request('GET', PATH, { auth: victim })).status, 200);

  for (let i = 0; i < 3; i++) t.is((await app.request('GET', PATH, { auth: wrong(victim) })).status, 401);
  const checks = counted.checks;
  const throttled = await app.request('GET', PATH, { auth: wrong(victim) });
  t.is(throttled.status, 429);
  t.is(throttled.body.code, 'rate_limited');
  const retryAfter = Number(throttled.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  const graphql = await app.request('POST', '/graphql', { auth: wrong(victim), body: { query: '{ __typename }' } });
  t.is(graphql.status, 429);
  t.truthy(graphql.headers.get('retry-after'));
  t.is(counted.checks, checks, 'a throttled attempt costs no secret check');

  t.is((await app.request('GET', PATH, { auth: victim })).status, 200, 'the remembered secret passes the throttle');
  counted.clock += 61_000;
  t.is((await app.request('GET', PATH, { auth: victim })).status, 200, 'after the verified minute too: checked against the stored credential');
  t.is(counted.checks, checks, 'without a new scrypt check');
  t.is((await app.request('GET', PATH, { auth: wrong(victim) })).status, 401, 'the window has passed');

  const other = await app.credential({ role: 'admin' });
  t.is((await app.request('GET', PATH, { auth: wrong(other) })).status, 401, 'other public ids are not throttled');
});

test('failures from one address are throttled; a client already signed in from it keeps working', async (t) => {
  const { app, counted } = await countedApp({ failuresPerAddress: 4, failuresPerPublicId: 1000 });
  t.teardown(() => app.close());
  const legit = await app.credential({ role: 'admin' });
  const newcomer = await app.credential({ role: 'admin' });
  t.is((await app.request('GET', PATH, { auth: legit })).status, 200);

  for (let i = 0; i < 4; i++) {
    t.is((await app.request('GET', PATH, { auth: { publicId: `random-${i}`, secret: 'some-guess-1234' } })).status, 401);
  }
  const checks = counted.checks;
  const throttled = await app.request('GET', PATH, { auth: { publicId: 'random-x', secret: 'some-guess-1234' } });
  t.is(throttled.status, 429);
  t.truthy(throttled.headers.get('retry-after'));
  t.is((await app.request('GET', PATH, { auth: legit })).status, 200);
  // Documented limit: a credential not yet verified by this process waits for the window like any other.
  t.is((await app.request('GET', PATH, { auth: newcomer })).status, 429);
  t.is(counted.checks, checks);
  counted.clock += 61_000;
  t.is((await app.request('GET', PATH, { auth: newcomer })).status, 200);
});

test('a revoked credential stops passing once its verified minute is over, even while throttled', async (t) => {
  const { app, counted } = await countedApp({ failuresPerPublicId: 1, failuresPerAddress: 1000, failureWindowMs: 300_000 });
  t.teardown(() => app.close());
  const auth = await app.credential({ role: 'admin' });
  t.is((await app.request('GET', PATH, { auth })).status, 200);
  t.is((await app.request('GET', PATH, { auth: wrong(auth) })).status, 401);
  const em = scopedEm(app.orm);
  (await em.findOneOrFail(Credential, { publicId: auth.publicId })).revoke();
  await em.flush();
  t.is((await app.request('GET', PATH, { auth })).status, 200, 'within the verified minute');
  counted.clock += 61_000;
  const after = await app.request('GET', PATH, { auth });
  t.is(after.status, 429, 'no longer remembered, so throttled with its public id');
});

test('unknown, revoked and known public ids all cost one secret check', async (t) => {
  const { app, counted } = await countedApp({ failuresPerAddress: 1000, failuresPerPublicId: 1000 });
  t.teardown(() => app.close());
  const known = await app.credential({ role: 'admin' });
  const revoked = await app.credential({ role: 'admin' });
  const em = scopedEm(app.orm);
  (await em.findOneOrFail(Credential, { publicId: revoked.publicId })).revoke();
  await em.flush();

  for (const auth of [wrong(known), { publicId: 'nobody-here-at-all', secret: 'some-guess-1234' }, revoked, wrong(revoked)]) {
    const before = counted.checks;
    const response = await app.request('GET', PATH, { auth });
    t.is(response.status, 401, auth.publicId);
    t.is(counted.checks - before, 1, auth.publicId);
  }
  const before = counted.checks;
  t.is((await app.request('GET', PATH, { auth: known })).status, 200);
  t.is((await app.request('GET', PATH, { auth: known })).status, 200);
  t.is(counted.checks - before, 1, 'a verified secret is remembered');
});

test('secret checks run a few at a time; past the queue the answer is 429 without waiting for them', async (t) => {
  const { app, counted } = await countedApp({ concurrentChecks: 1, queuedChecks: 1, failuresPerAddress: 1000, failuresPerPublicId: 1000 });
  t.teardown(() => app.close());
  let release!: () => void;
  counted.hold = new Promise<void>((resolve) => { release = resolve; });
  const guess = (i: number) => app.request('GET', PATH, { auth: { publicId: `guess-${i}`, secret: 'some-guess-1234' } });

  const first = guess(1);
  while (counted.checks === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const second = guess(2);
  const third = guess(3);
  const quick = await Promise.race([second, third]);
  t.is(quick.status, 429, 'answered while the first check still runs');
  t.is(quick.body.code, 'rate_limited');
  t.is(quick.headers.get('retry-after'), '1');
  t.is(counted.checks, 1);
  release();
  const statuses = (await Promise.all([first, second, third])).map((response) => response.status).sort();
  t.deepEqual(statuses, [401, 401, 429]);
});

test('one credential arriving on many connections at once costs one secret check and is not refused', async (t) => {
  const { app, counted } = await countedApp({ concurrentChecks: 1, queuedChecks: 1 });
  t.teardown(() => app.close());
  const auth = await app.credential({ role: 'admin' });
  let release!: () => void;
  counted.hold = new Promise<void>((resolve) => { release = resolve; });
  const first = app.request('GET', PATH, { auth });
  while (counted.checks === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const others = Array.from({ length: 20 }, () => app.request('GET', PATH, { auth }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  release();
  const statuses = (await Promise.all([first, ...others])).map((response) => response.status);
  t.deepEqual([...new Set(statuses)], [200]);
  t.is(counted.checks, 1);
});
