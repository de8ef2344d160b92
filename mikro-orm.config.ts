import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './src/entities.ts';
import { migrations } from './src/migrations/index.ts';
import { RecordEvents } from './src/events/record-events.ts';
import { pgClientClass } from './src/platform/pg-client.ts';
import { refuseConnectionsAfterEnd } from './src/platform/pool-closing.ts';

/** The ORM configuration for a database URL (embedded PostgreSQL or DATABASE_URL). */
export function ormConfig(clientUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return defineConfig({
    clientUrl,
    entities,
    subscribers: [new RecordEvents()],
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      path: 'src/migrations',
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    pool: { min: 0, max: options.poolMax ?? 20 },
    // A connection whose begin or rollback fails is dropped, not leaked from the pool (src/platform/pg-client.ts),
    // nor one that arrives once the pool is ending (src/platform/pool-closing.ts).
    driverOptions: { Client: pgClientClass(), onPoolCreated: refuseConnectionsAfterEnd },
    debug: options.debug ?? process.env.SVC_SQL_DEBUG === '1',
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    serialization: { forceObject: true },
  });
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgres://localhost/svc');
