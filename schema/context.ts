import { initContextCache } from '@pothos/core';
import type { Actor } from '../src/access/actor.ts';
import type { Em } from '../src/platform/orm.ts';

/** One per request: the caller and its scoped unit of work; dataloaders are cached on it. */
export interface GraphQLContext {
  em: Em;
  actor: Actor;
  /** App credentials: the end user named by the X-SVC-End-User header (schema/types/viewer.ts). */
  endUserId?: string | null;
  /** The request's origin (`https://host`): where OCPI peers reach us when no public URL is configured. */
  origin?: string;
}

export function createContext(em: Em, actor: Actor, endUserId: string | null = null, origin?: string): GraphQLContext {
  // initContextCache keeps Pothos' per-request caches when Yoga copies the context object.
  return { ...initContextCache(), em, actor, endUserId, origin };
}
