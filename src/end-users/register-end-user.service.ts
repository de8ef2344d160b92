import type { Actor } from '../access/actor.ts';
import { InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { EndUserData } from './end-user.queries.ts';
import { getSite } from './end-user-site.service.ts';
import { createEndUser, type EndUserPatch } from './save-end-user.service.ts';

/** POST /enduser/register: an end user in the App credential's site (and so its administration). */
export async function registerEndUser(em: Em, actor: Actor, patch: EndUserPatch): Promise<EndUserData> {
  if (!actor.siteId) throw new InvalidInputError('this App credential belongs to no end-user site', { path: [] });
  const site = await getSite(em, actor.siteId);
  return createEndUser(em, { ...patch, adminId: site.admin.id, siteId: site.id });
}
