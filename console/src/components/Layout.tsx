import { createContext, useContext, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import { ADMIN_KEY } from '../auth.ts';
import { Link, useRouter } from '../router.tsx';
import type { LayoutQuery } from '../__generated__/LayoutQuery.graphql.ts';

export const NAV: { to: string; label: string }[] = [
  { to: '/', label: 'Overview' },
  { to: '/customers', label: 'Customers' },
  { to: '/tokens', label: 'Tokens & subscriptions' },
  { to: '/sessions', label: 'Charge sessions' },
  { to: '/dropouts', label: 'Drop-outs' },
  { to: '/evses', label: 'EVSEs & locations' },
  { to: '/reimbursement', label: 'Reimbursement' },
  { to: '/roaming', label: 'Roaming' },
  { to: '/billing', label: 'Billing' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/audit', label: 'Audit trail' },
  { to: '/credentials', label: 'API credentials' },
  { to: '/about', label: 'About' },
];

interface AdminFilter {
  /** The administration slug chosen in the top bar, or null for all the credential sees. */
  adminId: string | null;
  administrations: readonly { databaseId: string; name: string }[];
}

const AdminContext = createContext<AdminFilter>({ adminId: null, administrations: [] });

export function useAdminFilter(): AdminFilter {
  return useContext(AdminContext);
}

function active(path: string, to: string): boolean {
  return to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`);
}

function Search() {
  const { navigate } = useRouter();
  const [q, setQ] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (q.trim()) navigate(`/search?q=${encodeURIComponent(q.trim())}`);
  };
  return (
    <form role="search" className="search" onSubmit={submit}>
      <label htmlFor="global-search">Find</label>
      <input id="global-search" type="search" placeholder="Customer name, id or reference, EVCO id, session id" value={q} onChange={(e) => setQ(e.target.value)} />
      <button type="submit">Search</button>
    </form>
  );
}

export function Layout({ publicId, onSignOut, children }: { publicId: string; onSignOut: () => void; children: ReactNode }) {
  const data = useLazyLoadQuery<LayoutQuery>(graphql`
    query LayoutQuery {
      instance { name }
      administrations { databaseId name }
    }
  `, {});
  const { location } = useRouter();
  const [menuOpen, setMenuOpen] = useState(false);
  const [adminId, setAdminId] = useState<string | null>(() => sessionStorage.getItem(ADMIN_KEY));
  const known = adminId && data.administrations.some((a) => a.databaseId === adminId) ? adminId : null;
  useEffect(() => setMenuOpen(false), [location.key]);
  const choose = (value: string) => {
    if (value) sessionStorage.setItem(ADMIN_KEY, value);
    else sessionStorage.removeItem(ADMIN_KEY);
    setAdminId(value || null);
  };
  return (
    <AdminContext.Provider value={{ adminId: known, administrations: data.administrations }}>
      <a className="skip" href="#main">Skip to content</a>
      <div className="shell">
        <header className="topbar">
          <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>Menu</button>
          <Link to="/" className="brand">{data.instance.name}</Link>
          <Search />
          {data.administrations.length > 1 ? (
            <div className="admin-filter">
              <label htmlFor="admin-filter">Administration</label>
              <select id="admin-filter" value={known ?? ''} onChange={(e) => choose(e.target.value)}>
                <option value="">All ({data.administrations.length})</option>
                {data.administrations.map((a) => <option key={a.databaseId} value={a.databaseId}>{a.name}</option>)}
              </select>
            </div>
          ) : data.administrations.length === 1 ? (
            <span className="admin-single" title="The only administration this credential sees">{data.administrations[0]!.name}</span>
          ) : null}
          <span className="whoami" aria-label="Signed in as">Signed in as <strong data-testid="public-id">{publicId}</strong></span>
          <button type="button" onClick={onSignOut}>Sign out</button>
        </header>
        <nav id="nav" aria-label="Areas" className={menuOpen ? 'open' : ''}>
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={active(location.path, item.to) ? 'page' : undefined}>{item.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>{children}</main>
      </div>
    </AdminContext.Provider>
  );
}
