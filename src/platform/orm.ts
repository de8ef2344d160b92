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

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.migrator.up();
  return done.map((m) => m.name);
}
