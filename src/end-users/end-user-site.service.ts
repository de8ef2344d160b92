// End-user sites: created by an operator (POST /end-user-site), listed (GET /end-user-site); an
// administration's default site is made on first use by an end user created without a site.
import { refuseBlank } from '../platform/blank-text.ts';
import { NotFoundError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid, uuidv7 } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import type { Administration } from '../parties/administration.entity.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { EndUserSite } from './end-user-site.entity.ts';
import { endUserSiteData, type EndUserSiteData } from './end-user.queries.ts';

export interface SiteInput {
  adminId?: string | null;
  name?: string | null;
  externalReference?: string | null;
}

/** The site a change concerns (the App credential's, or one named for a new end user). */
export async function getSite(em: Em, id: string, path?: (string | number)[]): Promise<EndUserSite> {
  const site = isUuid(id) ? await em.findOne(EndUserSite, { id }) : null;
  if (!site) throw new NotFoundError('end-user site', { path });
  return site;
}

export async function createSite(em: Em, input: SiteInput): Promise<EndUserSiteData> {
  refuseBlank(input.name, ['name']);
  const admin = await visibleAdministration(em, input.adminId);
  const site = em.create(EndUserSite, { admin, name: input.name ?? admin.name, externalReference: input.externalReference ?? null });
  await flushUnique(em, { end_user_site_external_reference_unique: ['external_reference'] });
  return endUserSiteData(site);
}

/** The named site (of the same administration), or the administration's default site. */
export async function siteForNewEndUser(em: Em, admin: Administration, siteId: string | null | undefined): Promise<EndUserSite> {
  if (siteId) {
    const site = await getSite(em, siteId, ['site_id']);
    if (site.admin.id.toLowerCase() !== admin.id.toLowerCase()) throw new NotFoundError('end-user site', { path: ['site_id'] });
    return site;
  }
  const existing = await em.findOne(EndUserSite, { admin, isDefault: true });
  if (existing) return existing;
  // Two first end users at once: one insert wins, both read the same row.
  await em.getConnection().execute(
    `insert into end_user_site (id, admin_id, name, is_default, created_at, updated_at)
     values (?, ?, ?, true, now(), now()) on conflict (admin_id) where is_default do nothing`,
    [uuidv7(), admin.id, admin.name],
  );
  return em.findOneOrFail(EndUserSite, { admin, isDefault: true });
}
