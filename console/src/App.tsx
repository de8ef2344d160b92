import { Suspense, useCallback, useMemo, useState, type FormEvent } from 'react';
import { RelayEnvironmentProvider } from 'react-relay';
import { clearCredential, loadCredential, saveCredential, type Credential } from './auth.ts';
import { ErrorBox } from './components/ErrorBox.tsx';
import { Layout } from './components/Layout.tsx';
import { EntityIdProvider } from './components/EntityId.tsx';
import { apiErrorFrom } from './relay/errors.ts';
import { createEnvironment, postGraphQL } from './relay/environment.ts';
import { Router } from './router.tsx';
import { Routes } from './routes.tsx';

function SignIn({ onSignedIn, notice }: { onSignedIn: (credential: Credential) => void; notice: string | null }) {
  const [publicId, setPublicId] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const credential = { publicId: publicId.trim(), secret };
    try {
      const result = await postGraphQL(credential, 'query ConsoleSignIn { instance { name } }', {});
      if (Array.isArray(result.errors) && result.errors.length) throw apiErrorFrom(result.errors, result.status);
      saveCredential(credential);
      onSignedIn(credential);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin">
      <form onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to the console</h1>
        <p className="muted">With an API credential: its public id and secret. It stays in this browser tab only.</p>
        {notice ? <p role="status" className="notice">{notice}</p> : null}
        <label htmlFor="public-id">Public id</label>
        <input id="public-id" name="username" autoComplete="username" required value={publicId} onChange={(e) => setPublicId(e.target.value)} />
        <label htmlFor="secret">Secret</label>
        <input id="secret" name="password" type="password" autoComplete="current-password" required value={secret} onChange={(e) => setSecret(e.target.value)} />
        {error ? <ErrorBox error={error} title="Sign-in failed" /> : null}
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}

export function App() {
  const [credential, setCredential] = useState<Credential | null>(loadCredential);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = useCallback((message: string | null = null) => {
    clearCredential();
    setNotice(message);
    setCredential(null);
  }, []);
  const environment = useMemo(
    () => (credential ? createEnvironment(credential, () => signOut('The credential was refused: sign in again.')) : null),
    [credential, signOut],
  );
  return (
    <Router>
      {credential && environment ? (
        <RelayEnvironmentProvider environment={environment}>
          <EntityIdProvider>
            <Suspense fallback={<p className="loading" aria-busy="true">Loading…</p>}>
              <Layout publicId={credential.publicId} onSignOut={() => signOut('Signed out.')}>
                <Routes />
              </Layout>
            </Suspense>
          </EntityIdProvider>
        </RelayEnvironmentProvider>
      ) : (
        <SignIn notice={notice} onSignedIn={(c) => { setNotice(null); setCredential(c); }} />
      )}
    </Router>
  );
}
