// API credentials over GraphQL (no REST write; the CLI's `credential create` is the other way in):
// list without secrets, create answering the generated secret once, scope change and revoke acting
// at once on the next request, and only an admin credential without an administration limit may
// do any of it (FORBIDDEN, HTTP 403). The app helper scans every answer, log line and event for the
// secret once it is registered (test/helpers/secret-scan.ts): after the answer of its creation it
// must never appear again.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { runCli } from '../helpers/process.ts';
import { registerSecret } from '../helpers/secret-scan.ts';
import { data, failure, graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const LIST = '{ apiCredentials(first: 100) { edges { node { publicId role adminIds revoked revokedAt createdAt } } } }';
const CREATE = `mutation ($p: String!, $r: CredentialRole, $a: [ID!]) {
  createApiCredential(publicId: $p, role: $r, adminIds: $a) { secret credential { publicId role adminIds revoked } } }`;
const SCOPE = 'mutation ($p: String!, $r: CredentialRole, $a: [ID!]) { updateApiCredentialScope(publicId: $p, role: $r, adminIds: $a) { publicId role adminIds } }';
const REVOKE = 'mutation ($p: String!) { revokeApiCredential(publicId: $p) { publicId revoked revokedAt } }';

async function created(publicId: string, variables: Record<string, unknown> = {}): Promise<Auth> {
  const answer = (await data(app, CREATE, { p: publicId, ...variables })).createApiCredential;
  registerSecret(answer.secret);
  return { publicId, secret: answer.secret };
}

const rest = (auth: Auth, method = 'GET', path = '/main/v1/customer', body?: unknown) => app.request(method, path, { auth, ...(body ? { body } : {}) });

test('create answers the secret once; it signs in at once; the list shows the credential without secret or hash', async (t) => {
  const answer = (await data(app, CREATE, { p: 'gql-cred-1', r: 'READONLY', a: [adminId] })).createApiCredential;
  registerSecret(answer.secret);
  t.true(answer.secret.length >= 24);
  t.deepEqual(answer.credential, { publicId: 'gql-cred-1', role: 'READONLY', adminIds: [adminId], revoked: false });
  t.is((await rest({ publicId: 'gql-cred-1', secret: answer.secret })).status, 200);

  const listed = await graphql(app, LIST);
  const node = listed.body.data!.apiCredentials.edges.map((e: any) => e.node).find((n: any) => n.publicId === 'gql-cred-1');
  t.like(node, { role: 'READONLY', adminIds: [adminId], revoked: false, revokedAt: null });
  const type = await data(app, '{ __type(name: "ApiCredential") { fields { name } } }');
  t.false(type.__type.fields.some((f: { name: string }) => /secret|hash/i.test(f.name)), 'no field answers the secret or its hash');
  t.notRegex(JSON.stringify(listed.body), /scrypt|\$[0-9a-z]+\$/i);
  // Later answers, the event log and the log lines are scanned for it too (secret-scan.ts, at close).
  for (const text of [JSON.stringify(listed.body), JSON.stringify((await app.request('GET', '/main/v1/event')).body),
    JSON.stringify(await data(app, '{ events(first: 100) { edges { node { kind changes } } } }'))]) {
    t.false(text.includes(answer.secret));
  }
  const rows = await app.orm.em.getConnection().execute('select secret_hash from credential where public_id = ?', ['gql-cred-1']) as { secret_hash: string }[];
  t.false(JSON.stringify(listed.body).includes(rows[0]!.secret_hash), 'nor its hash');

  t.like(await failure(app, CREATE, { p: 'gql-cred-1' }), { code: 'duplicate', param: '$.publicId' });
  t.like(await failure(app, CREATE, { p: 'x' }), { code: 'invalid_input', param: '$.publicId' });
  t.like(await failure(app, CREATE, { p: 'gql-cred-2', a: ['no-such-admin'] }), { code: 'invalid_input', param: '$.adminIds[0]' });
  const names = (await data(app, LIST)).apiCredentials.edges.map((e: any) => e.node.publicId);
  t.false(names.includes('gql-cred-2'), 'nothing stored');
});

test('a scope change and a revocation act on the very next request (REST 403, then 401)', async (t) => {
  const auth = await created('gql-cred-3');
  t.is((await rest(auth)).status, 200);
  t.is((await rest(auth, 'POST', '/main/v1/end-user-site', { admin_id: adminId, name: 'Before' })).status, 200);

  t.like((await data(app, SCOPE, { p: 'gql-cred-3', r: 'READONLY' })).updateApiCredentialScope, { role: 'READONLY', adminIds: [] });
  t.is((await rest(auth, 'POST', '/main/v1/end-user-site', { admin_id: adminId, name: 'After' })).status, 403);
  t.like((await data(app, SCOPE, { p: 'gql-cred-3', a: [adminId] })).updateApiCredentialScope, { role: 'READONLY', adminIds: [adminId] });

  const revoked = (await data(app, REVOKE, { p: 'gql-cred-3' })).revokeApiCredential;
  t.like(revoked, { publicId: 'gql-cred-3', revoked: true });
  t.truthy(revoked.revokedAt);
  t.is((await rest(auth)).status, 401);
  t.is((await graphql(app, '{ instance { name } }', {}, auth)).status, 401);
  t.like(await failure(app, REVOKE, { p: 'gql-cred-3' }), { code: 'already_revoked' });
  t.like(await failure(app, SCOPE, { p: 'gql-cred-3', r: 'ADMIN' }), { code: 'already_revoked' });
  t.like(await failure(app, REVOKE, { p: 'no-such-credential' }), { code: 'not_found', param: '$.publicId' });
});

test('only an admin credential without an administration limit may list or manage credentials (403 FORBIDDEN)', async (t) => {
  const limited = await app.credential({ role: 'admin', adminIds: [adminId] });
  const readonly = await app.credential({ role: 'readonly' });
  const appAuth = await app.credential({ role: 'app' });
  const target = await created('gql-cred-4');
  for (const [auth, name] of [[limited, 'limited'], [readonly, 'readonly']] as const) {
    const list = await graphql(app, LIST, {}, auth);
    t.is(list.status, 403, name);
    t.like(list.body.errors?.[0].extensions, { code: 'FORBIDDEN' }, name);
    for (const [query, variables] of [[CREATE, { p: `gql-by-${name}` }], [SCOPE, { p: 'gql-cred-4', r: 'READONLY' }], [REVOKE, { p: 'gql-cred-4' }]] as const) {
      const r = await graphql(app, query, variables, auth);
      t.is(r.status, 403, `${name} ${query.slice(0, 40)}`);
    }
  }
  t.is((await graphql(app, LIST, {}, appAuth)).status, 403);
  t.is((await rest(target)).status, 200, 'the target is untouched');
  const names = (await data(app, LIST)).apiCredentials.edges.map((e: any) => e.node.publicId);
  t.false(names.includes('gql-by-limited'));
  t.like((await data(app, '{ apiCredentials(first: 100) { edges { node { publicId role } } } }')).apiCredentials.edges
    .find((e: any) => e.node.publicId === 'gql-cred-4').node, { role: 'ADMIN' });
});

// Found by probing: a site of another administration was saved, and the credential could never register an end user.
test('an App credential\'s site belongs to one of its administrations, at creation and after a scope change', async (t) => {
  const other = (await createAdministration(app)).id;
  const site = async (admin: string) => (await app.request('POST', '/main/v1/end-user-site', { body: { admin_id: admin, name: `Site of ${admin}` } })).body.id as string;
  const [ours, theirs] = [await site(adminId), await site(other)];
  const CREATE_APP = `mutation ($p: String!, $a: [ID!], $s: ID) {
    createApiCredential(publicId: $p, role: APP, adminIds: $a, siteId: $s) { secret credential { siteId } } }`;
  const refused = await failure(app, CREATE_APP, { p: 'app-other-site', a: [adminId], s: theirs });
  t.like(refused, { code: 'invalid_input' });
  t.is((await data(app, LIST)).apiCredentials.edges.filter((e: any) => e.node.publicId === 'app-other-site').length, 0);
  const answer = (await data(app, CREATE_APP, { p: 'app-own-site', a: [adminId], s: ours })).createApiCredential;
  registerSecret(answer.secret);
  t.is(answer.credential.siteId, ours);
  const moved = await failure(app, SCOPE, { p: 'app-own-site', a: [other] });
  t.like(moved, { code: 'invalid_input' });
});

// Found by probing: the create checked, hashed the secret, then saved as the CLI does (replacing): four
// creates at once in four casings each answered its own secret, role and limit; the last one stored won.
test('creates of one public id at once: one is created as answered, the others are duplicate and change nothing', async (t) => {
  const [a, b] = [(await createAdministration(app)).id, (await createAdministration(app)).id];
  const variants = [{ p: 'RACE-CRED', r: 'READONLY', a: [a] }, { p: 'race-cred', r: 'ADMIN' }, { p: 'Race-Cred', r: 'READONLY', a: [b] }, { p: 'race-CRED', r: 'APP' }];
  const answers = await Promise.all(variants.map((v) => graphql(app, CREATE, v)));
  const created = answers.filter((answer) => answer.body.data?.createApiCredential);
  t.is(created.length, 1, JSON.stringify(answers.map((answer) => answer.body)));
  for (const answer of answers.filter((one) => !one.body.data?.createApiCredential)) {
    t.like(answer.body.errors?.[0]?.extensions, { code: 'duplicate', param: '$.publicId' });
  }
  const { secret, credential } = created[0].body.data!.createApiCredential;
  registerSecret(secret);
  const stored = (await data(app, LIST)).apiCredentials.edges.map((e: any) => e.node).filter((n: any) => n.publicId.toLowerCase() === 'race-cred');
  t.deepEqual(stored.map((n: any) => [n.role, n.adminIds]), [[credential.role, credential.adminIds]], 'stored as answered');
  t.not((await rest({ publicId: 'race-cred', secret }, 'GET', '/main/v1/end-user-site')).status, 401, 'its secret signs in');
});

// Found by probing (2026-11-29): one administration named twice in two casings was stored twice; the
// CLI's `credential create` took --rate-limit 0 (no limit at all) and ignored a misspelled --admins,
// creating a credential without an administration limit.
test('one administration named twice is stored once (GraphQL and CLI); the CLI refuses a rate limit of 0 and an unknown option', async (t) => {
  await created('gql-cred-twice', { a: [adminId, adminId.toUpperCase()] });
  const stored = async (publicId: string) => (await data(app, LIST)).apiCredentials.edges.map((e: any) => e.node).find((n: any) => n.publicId === publicId);
  t.deepEqual((await stored('gql-cred-twice')).adminIds, [adminId]);
  t.deepEqual((await data(app, SCOPE, { p: 'gql-cred-twice', a: [adminId.toUpperCase(), adminId] })).updateApiCredentialScope.adminIds, [adminId]);

  const env = { DATABASE_URL: app.databaseUrl };
  const create = (publicId: string, ...args: string[]) => runCli(['credential', 'create', '--public-id', publicId, '--secret', 'cli-cred-secret-123456', ...args], env);
  const [twice, zero, misspelled] = await Promise.all([
    create('cli-cred-twice', '--admin', adminId, '--admin', adminId.toUpperCase()),
    create('cli-cred-zero', '--rate-limit', '0'),
    create('cli-cred-admins', '--admins', adminId, '--role', 'admin'),
  ]);
  t.is(twice.code, 0, twice.stderr);
  t.deepEqual(JSON.parse(twice.stdout).admin_ids, [adminId]);
  t.deepEqual((await stored('cli-cred-twice')).adminIds, [adminId]);
  t.is(zero.code, 1);
  t.is(zero.stderr, 'invalid_input: $.rate_limit_per_minute: the rate limit must be 1 to 1,000,000 requests a minute\n');
  t.is(misspelled.code, 1);
  t.regex(misspelled.stderr, /^unknown option: --admins \(this command takes --public-id, --secret, --admin, /);
  t.is(await stored('cli-cred-zero'), undefined, 'nothing stored');
  t.is(await stored('cli-cred-admins'), undefined, 'nothing stored');
});
