// A browser remembers Basic credentials it was once asked for (a 401 answers WWW-Authenticate) and
// sends them with any request to the service, also one made by another site's page: a form, or a
// fetch without a body type, which it sends without asking the service first. Such a request says
// so (Sec-Fetch-Site: cross-site or same-site); a write of that kind is refused before
// authentication. API clients and the console (same origin) send none or `same-origin`.
import type { Context, Next } from 'koa';
import { DomainError } from '../errors.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const OTHER_SITES = new Set(['cross-site', 'same-site']);

export function refuseCrossSiteWrites(ctx: Context, next: Next): Promise<void> {
  if (!READS.has(ctx.method) && OTHER_SITES.has(ctx.get('sec-fetch-site').trim().toLowerCase())) {
    throw new DomainError('forbidden', 'a write sent by another site\'s page is refused');
  }
  return next();
}
