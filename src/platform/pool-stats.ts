// A connection pool of an ORM as metrics read it: connections in use, idle, and callers waiting
// for one (pg-pool's counters; MikroORM → Kysely → pg-pool).
import type { Orm } from './orm.ts';

export interface PoolStats { inUse: number; idle: number; waiting: number; max: number }

interface PgPool { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } }

export async function poolStats(orm: Orm): Promise<PoolStats> {
  const pool = await orm.em.getConnection().getNativeClient() as unknown as PgPool;
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 0 };
}
