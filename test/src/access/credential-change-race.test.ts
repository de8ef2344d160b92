// A credential revoked, rescoped or given a new secret while a check of its secret is under way
// (scrypt, on the thread pool): the check read it before the change and remembered the old caller
// after the change had forgotten it, so the revoked credential kept working from memory for a minute,
// and requests sent after the revocation answered joined that check. Found by probing; the
// authenticator's `verify` is held here so that the change lands while the check waits.
import test from 'ava';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { Authenticator } from '../../../src/access/authenticate.service.ts';
import { verifySecret } from '../../../src/access/secret-hash.ts';
import { saveCredential } from '../../../src/credentials/save-credential.service.ts';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';

const PATH = '/main/v1/administration';
const REVOKE = 'mutation ($p: String!) { revokeApiCredential(publicId: $p) { revoked } }';
const RESCOPE = 'mutation ($p: String!) { updateApiCredentialScope(publicId: $p, role: READONLY) { role } }';

let app: TestApp;
let hold: Promise<void> | null = null;
let checks = 0;
test.before(async () => {
  app = await startTestApp({
    authenticator: (orm) => new Authenticator(orm, {
      verify: async (secret, stored) => {
        checks++;
        if (hold) await hold;
        return verifySecret(secret, stored);
      },
    }),
  });
  t_ok((await app.request('GET', PATH)).status); // the test's own admin credential, remembered
});
test.after.always(async () => { await app?.close(); });

function t_ok(status: number) {
  if (status !== 200) throw new Error(`status ${status}`);
}

/** A fresh credential whose first check waits until `change` has run; answers the request in flight. */
async function changedWhileChecked(change: (victim: Auth) => Promise<void>, during?: (victim: Auth) => Promise<unknown>) {
  const victim = await app.credential({ role: 'admin' });
  let release!: () => void;
  hold = new Promise<void>((resolve) => { release = resolve; });
  const before = checks;
  const inFlight = app.request('GET', PATH, { auth: victim });
  while (checks === before) await new Promise((resolve) => setTimeout(resolve, 5));
  await change(victim);
  const later = during?.(victim);
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  hold = null;
  await inFlight;
  return { victim, later: await later };
}

const graphql = async (query: string, variables: Record<string, unknown>) => {
  const r = await app.request('POST', '/graphql', { body: { query, variables } });
  if (r.status !== 200 || r.body.errors) throw new Error(JSON.stringify(r.body));
};

test.serial('revoked while its first check runs: the next request is 401, on REST and GraphQL', async (t) => {
  const { victim } = await changedWhileChecked((v) => graphql(REVOKE, { p: v.publicId }));
  t.is((await app.request('GET', PATH, { auth: victim })).status, 401);
  t.is((await app.request('POST', '/graphql', { auth: victim, body: { query: '{ __typename }' } })).status, 401);
});

test.serial('a request sent after the revocation answered does not join the check begun before it', async (t) => {
  const { later } = await changedWhileChecked((v) => graphql(REVOKE, { p: v.publicId }), (v) => app.request('GET', PATH, { auth: v }));
  t.is((later as { status: number }).status, 401);
});

test.serial('rescoped to readonly while its first check runs: the next write is 403', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const { victim } = await changedWhileChecked((v) => graphql(RESCOPE, { p: v.publicId }));
  const write = await app.request('POST', '/main/v1/end-user-site', { auth: victim, body: { admin_id: adminId, name: 'After rescope' } });
  t.is(write.status, 403, JSON.stringify(write.body));
});

test.serial('a new secret saved while a check of the old one runs: the old secret stops', async (t) => {
  const { victim } = await changedWhileChecked(async (v) => {
    await saveCredential(scopedEm(app.orm), { publicId: v.publicId, secret: 'a-brand-new-secret-value', role: 'admin' });
  });
  t.is((await app.request('GET', PATH, { auth: victim })).status, 401);
});
