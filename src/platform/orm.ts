import { MikroORM, type EntityManager, type Logger } from '@mikro-orm/postgresql';
import { ormConfig } from '../../mikro-orm.config.ts';
import { ADMIN_SCOPE, UNSCOPED, type AdminScope } from '../access/admin-scope.ts';
import { requestPoolOptions } from './request-database.ts';

export type Orm = MikroORM;
export type Em = EntityManager;

export async function openOrm(databaseUrl: string, options: { poolMax?: number } = {}): Promise<Orm> {
  return MikroORM.init(ormConfig(databaseUrl, options));
}

/**
 * The ORM of HTTP requests: its own pool, every wait bounded by `boundMs` (a total per request,
 * src/platform/request-database.ts). Start-up, migrations, the worker and the CLI use `openOrm`.
 */
export async function openRequestOrm(databaseUrl: string, boundMs: number, options: { poolMax?: number; logger?: Logger } = {}): Promise<Orm> {
  const { logger, ...config } = options;
  return MikroORM.init({
    ...ormConfig(databaseUrl, config), driverOptions: requestPoolOptions(boundMs), ...(logger ? { loggerFactory: () => logger } : {}),
  });
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.migrator.up();
  return done.map((m) => m.name);
}

/** A fresh unit of work limited to what `scope` may see (everything for system work). */
export function scopedEm(orm: Orm, scope: AdminScope = UNSCOPED): Em {
  const em = orm.em.fork();
  em.setFilterParams(ADMIN_SCOPE, scope as unknown as Record<string, unknown>);
  return em;
}
