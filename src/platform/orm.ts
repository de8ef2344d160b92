import { MikroORM, type EntityManager, type Logger, type Options } from '@mikro-orm/postgresql';
import { requestPoolOptions } from './request-database.ts';

export type Orm = MikroORM;
export type Em = EntityManager;
/** What `openOrm` is given: the composition roots pass `ormConfig(url, …)` of mikro-orm.config.ts. */
export type OrmConfig = Options;

export async function openOrm(config: OrmConfig): Promise<Orm> {
  return MikroORM.init(config);
}

/**
 * The ORM of HTTP requests: its own pool, every wait bounded by `boundMs` (a total per request,
 * src/platform/request-database.ts). Start-up, migrations, the worker and the CLI use `openOrm`.
 */
export async function openRequestOrm(config: OrmConfig, boundMs: number, options: { logger?: Logger } = {}): Promise<Orm> {
  const { logger } = options;
  return MikroORM.init({
    ...config, driverOptions: requestPoolOptions(boundMs), ...(logger ? { loggerFactory: () => logger } : {}),
  });
}

/** Applies the pending migrations (one transaction); `progress` hears each one applied, as n of m. */
export async function migrate(orm: Orm, progress?: (done: number, total: number, name: string) => void): Promise<string[]> {
  if (!progress) return (await orm.migrator.up()).map((m) => m.name);
  const total = (await orm.migrator.getPending()).length;
  let done = 0;
  const heard = (migration: { name: string }) => progress(++done, total, migration.name);
  orm.migrator.on('migrated', heard);
  try {
    return (await orm.migrator.up()).map((m) => m.name);
  } finally {
    orm.migrator.off('migrated', heard);
  }
}

/**
 * Whether `em`'s ORM is still open. A statement after `orm.close()` would not fail: MikroORM opens a
 * new pool for it, which nothing ever closes (work deferred past a close, a timer, must ask first).
 */
export function isOrmOpen(em: Em): boolean {
  return (em.getConnection() as unknown as { connected: boolean }).connected;
}
