// A browser remembers Basic credentials it was once asked for (a 401 answers WWW-Authenticate) and
// sends them with any request to the service, also one made by another site's page: a form, or a
// fetch without a body type, which it sends without asking the service first. Such a request says
// so (Sec-Fetch-Site: cross-site or same-site); a write of that kind is refused before
// authentication. API clients and the console (same origin) send none or `same-origin`.
import type { Context, Next } from 'koa';
import { DomainError } from '../errors.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/**
 * A browser without Fetch Metadata (older Safari and Firefox, web views) names the page's origin
 * instead: one other than the service's host is another site's (found by probing, 2026-11-29: an
 * empty form post from any page blocked a customer). `null` is an opaque origin. The host alone is
 * compared: behind a proxy that ends TLS the scheme the service sees differs from the browser's.
 */
function foreignOrigin(ctx: Context): boolean {
  const origin = ctx.get('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host.toLowerCase() !== ctx.host.toLowerCase();
  } catch {
    return true;
  }
}

/** Refuses (403) a write another site's page sent: before authentication, on /main/v1 and /graphql. */
export function assertNotCrossSiteWrite(ctx: Context): void {
  if (READS.has(ctx.method)) return;
  const site = ctx.get('sec-fetch-site').trim().toLowerCase();
  if (OTHER_SITES.has(site) || (site === '' && foreignOrigin(ctx))) {
    throw new DomainError('forbidden', 'a write sent by another site\'s page is refused');
  }
}

export function refuseCrossSiteWrites(ctx: Context, next: Next): Promise<void> {
  assertNotCrossSiteWrite(ctx);
  return next();
}
