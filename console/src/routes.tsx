import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { ErrorBoundary } from './components/ErrorBox.tsx';
import { Empty } from './components/format.tsx';
import { PageHeader } from './components/ui.tsx';
import { match, useRouter } from './router.tsx';
import { AuditPage, EvsesPage, ReimbursementPage, RoamingPage, WebhooksPage } from './pages/Areas.tsx';
import { CredentialsPage } from './pages/Credentials.tsx';
import { ArrangementPage } from './pages/Arrangement.tsx';
import { BillingPage, ReviewSetPage } from './pages/Billing.tsx';
import { BillingBoxPage } from './pages/BillingBox.tsx';
import { CustomerPage } from './pages/Customer.tsx';
import { CustomersPage } from './pages/Customers.tsx';
import { DropoutsPage } from './pages/Dropouts.tsx';
import { AboutPage, OverviewPage } from './pages/Overview.tsx';
import { SearchPage } from './pages/Search.tsx';
import { SessionPage } from './pages/Session.tsx';
import { SessionsPage } from './pages/Sessions.tsx';
import { TokenPage, TokensPage } from './pages/Tokens.tsx';

const ROUTES: [string, (params: Record<string, string>) => ReactNode, string][] = [
  ['/', () => <OverviewPage />, 'Overview'],
  ['/about', () => <AboutPage />, 'About'],
  ['/search', () => <SearchPage />, 'Search'],
  ['/customers', () => <CustomersPage />, 'Customers'],
  ['/customers/:id', (p) => <CustomerPage id={p.id!} />, 'Customer'],
  ['/tokens', () => <TokensPage />, 'Tokens'],
  ['/tokens/:evcoId', (p) => <TokenPage evcoId={p.evcoId!} />, 'Token'],
  ['/sessions', () => <SessionsPage />, 'Charge sessions'],
  ['/sessions/:id', (p) => <SessionPage id={p.id!} />, 'Charge session'],
  ['/dropouts', () => <DropoutsPage />, 'Drop-outs'],
  ['/evses', () => <EvsesPage />, 'EVSEs & locations'],
  ['/reimbursement', () => <ReimbursementPage />, 'Reimbursement'],
  ['/reimbursement/arrangements/:id', (p) => <ArrangementPage id={p.id!} />, 'Reimbursement arrangement'],
  ['/roaming', () => <RoamingPage />, 'Roaming'],
  ['/billing', () => <BillingPage />, 'Billing'],
  ['/billing/review-sets/:id', (p) => <ReviewSetPage id={p.id!} />, 'Review set'],
  ['/billing/boxes/:id', (p) => <BillingBoxPage id={p.id!} />, 'Billing box'],
  ['/webhooks', () => <WebhooksPage />, 'Webhooks'],
  ['/audit', () => <AuditPage />, 'Audit trail'],
  ['/credentials', () => <CredentialsPage />, 'API credentials'],
];

function Skeleton() {
  return (
    <div className="skeleton" aria-busy="true" aria-label="Loading">
      <div className="bar wide" /><div className="bar" /><div className="bar" /><div className="bar" />
    </div>
  );
}

export function Routes() {
  const { location } = useRouter();
  const found = ROUTES.map(([pattern, render, title]) => ({ params: match(pattern, location.path), render, title })).find((r) => r.params);
  const title = found?.title ?? 'Not found';
  const first = useRef(true);
  useEffect(() => {
    document.title = `${title} · Console`;
    // Focus follows a navigation to the new page's content (not on the first load).
    if (!first.current) document.getElementById('main')?.focus({ preventScroll: true });
    first.current = false;
  }, [location.path, title]);
  // The key of the path alone: a filter change keeps the page (and its inputs) and reloads its list.
  return (
    <ErrorBoundary resetKey={location.key}>
      <Suspense key={location.path} fallback={<Skeleton />}>
        {found ? found.render(found.params!) : <><PageHeader title="Not found" /><Empty>No page at {location.path}.</Empty></>}
      </Suspense>
    </ErrorBoundary>
  );
}
