// A small router on the History API: paths below /console/, filters in the query string so a
// link reproduces the view.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/console';

interface Location {
  path: string;
  search: URLSearchParams;
  key: string;
}

interface RouterValue {
  location: Location;
  navigate(to: string, options?: { replace?: boolean }): void;
}

function current(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) || '/' : '/';
  return { path, search: new URLSearchParams(window.location.search), key: `${window.location.pathname}${window.location.search}` };
}

const RouterContext = createContext<RouterValue | null>(null);

export function Router({ children }: { children: React.ReactNode }) {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const onPop = () => setLocation(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    const url = to.startsWith('/') ? `${BASE}${to}` : to;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setLocation(current());
    if (!options.replace) window.scrollTo(0, 0);
  }, []);
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useRouter outside <Router>');
  return value;
}

/** The query-string filters of the current view, and a setter that keeps the others. */
export function useFilters(): [URLSearchParams, (changes: Record<string, string | null | undefined>) => void] {
  const { location, navigate } = useRouter();
  const set = useCallback((changes: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === '') next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    navigate(`${location.path}${query ? `?${query}` : ''}`, { replace: true });
  }, [location, navigate]);
  return [location.search, set];
}

/** `path` matched against a pattern like `/customers/:id`: the parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:(\w+)/g, (_m, name: string) => { names.push(name); return '([^/]+)'; })}/?$`);
  const found = regex.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const { navigate } = useRouter();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={handle} {...rest} />;
}

export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}
