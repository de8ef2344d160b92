// API credentials: the list (never a secret), create (the secret shown once, with a copy button),
// change scope (role, administrations), revoke (after a confirmation). Only an admin credential
// without an administration limit may see this page's data; any other gets the FORBIDDEN error.
// Credentials are no Relay nodes: after a change the list is fetched again.
import { useState, type FormEvent } from 'react';
import { graphql, useLazyLoadQuery, useMutation } from 'react-relay';
import { Dialog } from '../components/Dialog.tsx';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { Badge, DateTime, Empty } from '../components/format.tsx';
import { ActionButton, PageHeader, Section } from '../components/ui.tsx';
import { errorItems, type ApiErrorItem } from '../relay/errors.ts';
import type { CredentialsPageQuery } from '../__generated__/CredentialsPageQuery.graphql.ts';
import type { CredentialsCreateMutation, CredentialRole } from '../__generated__/CredentialsCreateMutation.graphql.ts';
import type { CredentialsScopeMutation } from '../__generated__/CredentialsScopeMutation.graphql.ts';
import type { CredentialsRevokeMutation } from '../__generated__/CredentialsRevokeMutation.graphql.ts';

const ROLES: { value: CredentialRole; label: string }[] = [
  { value: 'ADMIN', label: 'Admin (read and write)' },
  { value: 'READONLY', label: 'Read only' },
  { value: 'APP', label: 'App (App API for its end users)' },
];

interface Administration { databaseId: string; name: string }

/** `$.publicId` → `publicId`; `$.adminIds[0]` → `adminIds`. */
function fieldOf(item: ApiErrorItem): string | null {
  const match = /^\$\.([A-Za-z]+)/.exec(item.param ?? '');
  return match ? match[1]! : null;
}

function split(error: unknown): { fields: Record<string, string>; other: ApiErrorItem[] } {
  const fields: Record<string, string> = {};
  const other: ApiErrorItem[] = [];
  for (const item of errorItems(error)) {
    const field = fieldOf(item);
    if (field && !fields[field]) fields[field] = item.message;
    else other.push(item);
  }
  return { fields, other };
}

function AdministrationChoice({ administrations, chosen, onChange, idPrefix }: {
  administrations: readonly Administration[]; chosen: string[]; onChange: (ids: string[]) => void; idPrefix: string;
}) {
  return (
    <fieldset className="field">
      <legend>Administrations (none checked: every administration)</legend>
      {administrations.map((a) => (
        <label key={a.databaseId} htmlFor={`${idPrefix}-${a.databaseId}`} className="check">
          <input id={`${idPrefix}-${a.databaseId}`} type="checkbox" checked={chosen.includes(a.databaseId)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, a.databaseId] : chosen.filter((id) => id !== a.databaseId))} />
          {' '}{a.name} <code>{a.databaseId}</code>
        </label>
      ))}
    </fieldset>
  );
}

function CreateCredential({ administrations, onClose, onCreated }: { administrations: readonly Administration[]; onClose: () => void; onCreated: () => void }) {
  const [publicId, setPublicId] = useState('');
  const [role, setRole] = useState<CredentialRole>('ADMIN');
  const [adminIds, setAdminIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ fields: Record<string, string>; other: ApiErrorItem[] }>({ fields: {}, other: [] });
  const [created, setCreated] = useState<{ publicId: string; secret: string } | null>(null);
  const [copied, setCopied] = useState('');
  const [create, creating] = useMutation<CredentialsCreateMutation>(graphql`
    mutation CredentialsCreateMutation($publicId: String!, $role: CredentialRole, $adminIds: [ID!]) {
      createApiCredential(publicId: $publicId, role: $role, adminIds: $adminIds) { secret credential { publicId role adminIds } }
    }
  `);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({ fields: {}, other: [] });
    create({
      variables: { publicId: publicId.trim(), role, adminIds },
      onCompleted: (response, errs) => {
        if (errs?.length) return setErrors(split({ errors: errs }));
        const answer = response.createApiCredential;
        if (answer) {
          setCreated({ publicId: answer.credential.publicId, secret: answer.secret });
          onCreated();
        }
      },
      onError: (error) => setErrors(split(error)),
    });
  };
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('Copied');
    } catch {
      (document.getElementById('cred-secret') as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C to copy');
    }
  };
  if (created) {
    return (
      <Dialog title={`Credential ${created.publicId} created`} onClose={onClose}>
        <p><strong>Copy the secret now: it is shown this once.</strong> Sign in with the public id <code>{created.publicId}</code> and this secret.</p>
        <label htmlFor="cred-secret">Secret</label>
        <input id="cred-secret" className="entity-id" readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} />
        <div className="actions">
          <button type="button" className="primary" onClick={copy} data-autofocus>Copy secret</button>
          <button type="button" onClick={onClose}>Done</button>
        </div>
        <p role="status" className="muted">{copied}</p>
      </Dialog>
    );
  }
  return (
    <Dialog title="New API credential" onClose={onClose}>
      <form onSubmit={submit} className="form" noValidate>
        <div className="field">
          <label htmlFor="cred-publicId">Public id</label>
          <input id="cred-publicId" value={publicId} required onChange={(e) => setPublicId(e.target.value)}
            aria-invalid={errors.fields.publicId ? true : undefined} aria-describedby={errors.fields.publicId ? 'cred-publicId-error' : undefined} />
          {errors.fields.publicId ? <p id="cred-publicId-error" className="field-error" role="alert">{errors.fields.publicId}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="cred-role">Role</label>
          <select id="cred-role" value={role} onChange={(e) => setRole(e.target.value as CredentialRole)}>
            {ROLES.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </div>
        <AdministrationChoice administrations={administrations} chosen={adminIds} onChange={setAdminIds} idPrefix="cred-admin" />
        {errors.fields.adminIds ? <p className="field-error" role="alert">{errors.fields.adminIds}</p> : null}
        {errors.other.length ? <ErrorBox error={{ errors: errors.other }} title="Not created" /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={creating}>{creating ? 'Creating…' : 'Create credential'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}

function ChangeScope({ credential, administrations, onClose, onSaved }: {
  credential: { publicId: string; role: CredentialRole; adminIds: readonly string[] };
  administrations: readonly Administration[]; onClose: () => void; onSaved: () => void;
}) {
  const [role, setRole] = useState<CredentialRole>(credential.role);
  const [adminIds, setAdminIds] = useState<string[]>([...credential.adminIds]);
  const [error, setError] = useState<unknown>(null);
  const [save, saving] = useMutation<CredentialsScopeMutation>(graphql`
    mutation CredentialsScopeMutation($publicId: String!, $role: CredentialRole, $adminIds: [ID!]) {
      updateApiCredentialScope(publicId: $publicId, role: $role, adminIds: $adminIds) { publicId role adminIds }
    }
  `);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    save({
      variables: { publicId: credential.publicId, role, adminIds },
      onCompleted: (_r, errs) => { if (errs?.length) setError({ errors: errs }); else { onSaved(); onClose(); } },
      onError: setError,
    });
  };
  return (
    <Dialog title={`Scope of ${credential.publicId}`} onClose={onClose}>
      <form onSubmit={submit} className="form" noValidate>
        <div className="field">
          <label htmlFor="scope-role">Role</label>
          <select id="scope-role" value={role} onChange={(e) => setRole(e.target.value as CredentialRole)}>
            {ROLES.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </div>
        <AdministrationChoice administrations={administrations} chosen={adminIds} onChange={setAdminIds} idPrefix="scope-admin" />
        <p className="muted">The credential acts with its new scope from its next request on.</p>
        {error ? <ErrorBox error={error} title="Not saved" /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save scope'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}

export function CredentialsPage() {
  const [fetchKey, setFetchKey] = useState(0);
  const [creating, setCreating] = useState(false);
  const [scoping, setScoping] = useState<string | null>(null);
  const refresh = () => setFetchKey((k) => k + 1);
  const data = useLazyLoadQuery<CredentialsPageQuery>(graphql`
    query CredentialsPageQuery {
      administrations { databaseId name }
      apiCredentials(first: 100) { edges { node { databaseId publicId role adminIds siteId rateLimitPerMinute revoked revokedAt createdAt } } }
    }
  `, {}, { fetchPolicy: 'network-only', fetchKey });
  const credentials = data.apiCredentials.edges.map((e) => e.node);
  const scoped = credentials.find((c) => c.publicId === scoping);
  return (
    <>
      <PageHeader title="API credentials" actions={<button type="button" className="primary" onClick={() => setCreating(true)}>New credential</button>} />
      <Section title="Credentials">
        <p className="muted">HTTP Basic: the public id and its secret. A secret is shown once, when its credential is created; it is stored only as a hash.</p>
        {credentials.length ? (
          <div className="table-wrap"><table>
            <caption className="visually-hidden">API credentials</caption>
            <thead><tr><th scope="col">Public id</th><th scope="col">Role</th><th scope="col">Administrations</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
            <tbody>{credentials.map((c) => (
              <tr key={c.databaseId} data-credential={c.publicId}>
                <td><code>{c.publicId}</code>{c.siteId ? <div className="muted">site {c.siteId.slice(0, 8)}…</div> : null}</td>
                <td>{c.role.toLowerCase()}</td>
                <td>{c.adminIds.length ? c.adminIds.join(', ') : 'every administration'}</td>
                <td><DateTime value={c.createdAt} /></td>
                <td>{c.revoked ? <><Badge state="revoked" /> <DateTime value={c.revokedAt} /></> : <Badge state="active" />}</td>
                <td>{c.revoked ? null : (
                  <>
                    <button type="button" onClick={() => setScoping(c.publicId)}>Change scope</button>{' '}
                    <ActionButton<CredentialsRevokeMutation> label="Revoke" danger title={`Revoke ${c.publicId}?`}
                      explain={<p>The credential <code>{c.publicId}</code> stops working at once: every request with it is refused (401). This cannot be undone.</p>}
                      mutation={graphql`mutation CredentialsRevokeMutation($publicId: String!) { revokeApiCredential(publicId: $publicId) { publicId revoked revokedAt } }`}
                      variables={{ publicId: c.publicId }} onDone={refresh} done="Revoked" />
                  </>
                )}</td>
              </tr>
            ))}</tbody>
          </table></div>
        ) : <Empty>No API credentials.</Empty>}
      </Section>
      {creating ? <CreateCredential administrations={data.administrations} onClose={() => setCreating(false)} onCreated={refresh} /> : null}
      {scoped ? <ChangeScope credential={scoped} administrations={data.administrations} onClose={() => setScoping(null)} onSaved={refresh} /> : null}
    </>
  );
}
