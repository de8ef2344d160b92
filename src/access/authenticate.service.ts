import { createHash, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { DomainError } from '../platform/errors.ts';
import type { Orm } from '../platform/orm.ts';
import { scopedEm } from '../access/admin-scope.ts';
import type { Actor } from './actor.ts';
import { CheckGate, GateFullError } from './check-gate.ts';
import { forgetOnChange } from './credential-changes.ts';
import { Credential } from './credential.entity.ts';
import { FailureThrottle } from './failure-throttle.ts';
import { dummySecretHash, verifySecret } from './secret-hash.ts';

const CACHE_TTL_MS = 60_000;
const MAX_VERIFIED = 10_000;
// scrypt runs on libuv's thread pool: at most half the cores (1 to 4), the rest keeps serving.
const CONCURRENT_CHECKS = Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));

export interface AuthenticatorOptions {
  /** The scrypt comparison (a test counts its calls). */
  verify?: (secret: string, stored: string) => Promise<boolean>;
  /** Failed checks from one client address before it waits for the window to end. */
  failuresPerAddress?: number;
  /** Failed checks for one public id (from anywhere) before it waits for the window to end. */
  failuresPerPublicId?: number;
  failureWindowMs?: number;
  /** Addresses and public ids each throttle remembers at most. */
  throttleEntries?: number;
  /** Secret checks running at once, and waiting for a turn; past that 429 at once. */
  concurrentChecks?: number;
  queuedChecks?: number;
  /** How long a refused attempt is held before its 429 (slows a flood down), and how many at once at most. */
  refusalDelayMs?: number;
  maxHeld?: number;
  /** The clock (a test moves it). */
  now?: () => number;
}

interface Verified { digest: Buffer; secretHash: string; actor: Actor; checkedAt: number }
type Outcome = { actor: Actor | null } | { wait: number } | { gateFull: true };

function rateLimited(message: string, retryAfter: number): DomainError {
  return Object.assign(new DomainError('rate_limited', message), { retryAfter });
}

/**
 * Checks HTTP Basic credentials. scrypt is slow on purpose, so a verified secret is remembered
 * (as a SHA-256 digest): for a minute as is, after that it is checked against the stored
 * credential again (revoked? secret changed?) without a new scrypt. A remembered secret passes
 * before any throttle, so a legitimate client keeps working while its public id or its address
 * is under attack. Everything else is throttled per address and per public id, and goes through
 * a small gate; unknown and revoked ids cost the same scrypt as known ones.
 */
export class Authenticator {
  private readonly verified = new Map<string, Verified>();
  /** Checks under way by public id and secret digest: the same credential arriving on many connections at once costs one scrypt. */
  private readonly checking = new Map<string, Promise<Outcome>>();
  /**
   * How often each public id's credential changed in this process (`forget`): a check that read the
   * credential before a change reads it again before it answers or remembers anything.
   */
  private readonly changes = new Map<string, number>();
  private readonly orm: Orm;
  private readonly verify: (secret: string, stored: string) => Promise<boolean>;
  private readonly byAddress: FailureThrottle;
  private readonly byPublicId: FailureThrottle;
  private readonly gate: CheckGate;
  private readonly now: () => number;
  private readonly refusalDelayMs: number;
  private readonly maxHeld: number;
  private held = 0;

  constructor(orm: Orm, options: AuthenticatorOptions = {}) {
    this.orm = orm;
    this.verify = options.verify ?? verifySecret;
    this.now = options.now ?? Date.now;
    const windowMs = options.failureWindowMs ?? 60_000;
    const maxEntries = options.throttleEntries ?? 10_000;
    this.byAddress = new FailureThrottle({ limit: options.failuresPerAddress ?? 10, windowMs, maxEntries });
    this.byPublicId = new FailureThrottle({ limit: options.failuresPerPublicId ?? 5, windowMs, maxEntries });
    this.gate = new CheckGate({ concurrency: options.concurrentChecks ?? CONCURRENT_CHECKS, queueLimit: options.queuedChecks ?? 16 });
    this.refusalDelayMs = options.refusalDelayMs ?? 1000;
    this.maxHeld = options.maxHeld ?? 1000;
    // Made now, so the first unknown id does not pay for it.
    dummySecretHash().catch(() => {});
    // A revoked or rescoped credential is not answered from memory (credential-changes.ts).
    forgetOnChange(this);
  }

  /** The caller, or null for a wrong credential; throws `rate_limited` (with retryAfter) when throttled. */
  async authenticate(publicId: string, secret: string, address: string): Promise<Actor | null> {
    const key = publicId.toLowerCase();
    const digest = createHash('sha256').update(secret).digest();
    const remembered = this.verified.get(key);
    if (remembered && timingSafeEqual(remembered.digest, digest)) {
      if (this.now() - remembered.checkedAt < CACHE_TTL_MS) return remembered.actor;
      const actor = await this.recheck(key, remembered);
      if (actor) return actor;
    }

    const wait = this.throttleWait(key, address);
    if (wait > 0) return this.refuse(wait);
    const checkKey = `${key}:${digest.toString('base64')}`;
    let pending = this.checking.get(checkKey);
    if (!pending) {
      pending = this.gatedCheck(key, publicId, secret, digest, address).finally(() => this.checking.delete(checkKey));
      this.checking.set(checkKey, pending);
    }
    const outcome = await pending;
    if ('gateFull' in outcome) return this.refuse(1, 'too many credential checks at once; try again in a second');
    return 'wait' in outcome ? this.refuse(outcome.wait) : outcome.actor;
  }

  /** The credential changed (revoked, rescoped, a new secret): nothing read of it before answers again. */
  forget(publicId: string): void {
    const key = publicId.toLowerCase();
    this.verified.delete(key);
    if (this.changes.size >= MAX_VERIFIED) this.changes.clear(); // a count that moves (to 0) still reads again
    this.changes.set(key, (this.changes.get(key) ?? 0) + 1);
    // A request from now on starts a check of its own rather than join one that read the old credential.
    for (const checkKey of [...this.checking.keys()]) if (checkKey.startsWith(`${key}:`)) this.checking.delete(checkKey);
  }

  private changesOf(key: string): number {
    return this.changes.get(key) ?? 0;
  }

  /**
   * The credential as it is now when it changed since `seen` (while its secret was checked): live
   * with the secret hash the check verified, else null. Read again until no change came between.
   */
  private async current(key: string, credential: Credential, seen: number): Promise<Credential | null> {
    let live = credential;
    for (let changes = seen; this.changesOf(key) !== changes;) {
      changes = this.changesOf(key);
      const fresh = await scopedEm(this.orm).findOne(Credential, { id: live.id });
      if (!fresh || fresh.revokedAt || fresh.secretHash !== live.secretHash) return null;
      live = fresh;
    }
    return live;
  }

  private async gatedCheck(key: string, publicId: string, secret: string, digest: Buffer, address: string): Promise<Outcome> {
    try {
      return await this.gate.run(async () => {
        // Waiting in the gate may have taken long enough for others to hit the limit.
        const wait = this.throttleWait(key, address);
        return wait > 0 ? { wait } : { actor: await this.check(key, publicId, secret, digest, address) };
      });
    } catch (error) {
      if (error instanceof GateFullError) return { gateFull: true };
      throw error;
    }
  }

  private throttleWait(key: string, address: string): number {
    const now = this.now();
    return Math.max(this.byAddress.waitSeconds(address, now), this.byPublicId.waitSeconds(key, now));
  }

  /**
   * 429, held back a while first (no work, a timer): a client hammering on regardless gets one
   * answer a second per connection, so a flood of cheap refusals cannot crowd out legitimate
   * requests. Past `maxHeld` refusals waiting, the answer goes at once.
   */
  private async refuse(wait: number, message = 'too many failed sign-ins; try again later'): Promise<never> {
    if (this.refusalDelayMs > 0 && this.held < this.maxHeld) {
      this.held++;
      try {
        await new Promise((resolve) => setTimeout(resolve, this.refusalDelayMs));
      } finally {
        this.held--;
      }
    }
    throw rateLimited(message, wait);
  }

  private async check(key: string, publicId: string, secret: string, digest: Buffer, address: string): Promise<Actor | null> {
    const seen = this.changesOf(key);
    const credential = await scopedEm(this.orm).findOne(Credential, { publicId });
    const usable = credential && !credential.revokedAt ? credential : null;
    // The same scrypt work whether or not the id exists.
    const matches = await this.verify(secret, usable?.secretHash ?? (await dummySecretHash()));
    if (!usable || !matches) {
      this.byAddress.recordFailure(address, this.now());
      this.byPublicId.recordFailure(key, this.now());
      return null;
    }
    // Revoked, rescoped or given a new secret while its secret was checked: as it is now.
    const live = await this.current(key, usable, seen);
    if (!live) return null;
    const actor = actorOf(live);
    this.remember(key, { digest, secretHash: live.secretHash, actor, checkedAt: this.now() });
    return actor;
  }

  /** A remembered secret older than a minute: valid while the credential is live and has the same hash. */
  private async recheck(key: string, remembered: Verified): Promise<Actor | null> {
    const seen = this.changesOf(key);
    const credential = await scopedEm(this.orm).findOne(Credential, { id: remembered.actor.credentialId! });
    const live = credential && !credential.revokedAt && credential.secretHash === remembered.secretHash ? await this.current(key, credential, seen) : null;
    if (!live) {
      this.verified.delete(key);
      return null;
    }
    const actor = actorOf(live);
    this.remember(key, { ...remembered, actor, checkedAt: this.now() });
    return actor;
  }

  private remember(key: string, entry: Verified): void {
    this.verified.delete(key);
    this.verified.set(key, entry);
    if (this.verified.size > MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as string);
  }
}

function actorOf(credential: Credential): Actor {
  return {
    credentialId: credential.id,
    publicId: credential.publicId,
    role: credential.role,
    scope: { all: credential.adminIds.length === 0, ids: [...credential.adminIds] },
    rateLimitPerMinute: credential.rateLimitPerMinute ?? null,
    siteId: credential.siteId ?? null,
  };
}
