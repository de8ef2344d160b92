import type { AdminScope } from './admin-scope.ts';
import type { Role } from './credential.entity.ts';

/** Who is calling: an authenticated credential, or the system itself (CLI, jobs). */
export interface Actor {
  credentialId: string | null;
  publicId: string;
  role: Role;
  scope: AdminScope;
  rateLimitPerMinute: number | null;
  /** App credentials: their end-user site. */
  siteId?: string | null;
}

export const SYSTEM_ACTOR: Actor = {
  credentialId: null,
  publicId: 'system',
  role: 'admin',
  scope: { all: true, ids: [] },
  rateLimitPerMinute: null,
};
