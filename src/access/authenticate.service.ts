import { createHash, timingSafeEqual } from 'node:crypto';
import type { Orm } from '../platform/orm.ts';
import { scopedEm } from '../platform/orm.ts';
import type { Actor } from './actor.ts';
import { Credential } from './credential.entity.ts';
import { verifySecret } from './secret-hash.ts';

const CACHE_TTL_MS = 60_000;

interface CacheEntry { digest: Buffer; actor: Actor; expiresAt: number }

/**
 * Checks HTTP Basic credentials. scrypt is slow on purpose, so a verified secret is
 * remembered (as a SHA-256 digest) for a minute; revocations take effect within that minute.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly orm: Orm;

  constructor(orm: Orm) {
    this.orm = orm;
  }

  async authenticate(publicId: string, secret: string): Promise<Actor | null> {
    const key = publicId.toLowerCase();
    const digest = createHash('sha256').update(secret).digest();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now() && timingSafeEqual(cached.digest, digest)) return cached.actor;

    const em = scopedEm(this.orm);
    const credential = await em.findOne(Credential, { publicId });
    if (!credential || credential.revokedAt || !(await verifySecret(secret, credential.secretHash))) return null;
    const actor: Actor = {
      credentialId: credential.id,
      publicId: credential.publicId,
      role: credential.role,
      scope: { all: credential.adminIds.length === 0, ids: [...credential.adminIds] },
      rateLimitPerMinute: credential.rateLimitPerMinute ?? null,
    };
    this.cache.set(key, { digest, actor, expiresAt: Date.now() + CACHE_TTL_MS });
    return actor;
  }

  forget(publicId: string): void {
    this.cache.delete(publicId.toLowerCase());
  }
}
