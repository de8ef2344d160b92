import type { Server } from 'node:http';
import { createApp } from '../rest/app.ts';
import { saveCredential } from './access/save-credential.service.ts';
import type { Config } from './platform/config.ts';
import { openDatabase, type Database } from './platform/database.ts';
import { migrate, openOrm, scopedEm, type Orm } from './platform/orm.ts';
import { migrateSessionQueue, startSessionWorker, type SessionWorker } from './sessions/session-queue.ts';

export interface RunningService {
  url: string;
  port: number;
  orm: Orm;
  database: Database;
  stop(): Promise<void>;
}

/** Database (embedded or DATABASE_URL), migrations, bootstrap credential, HTTP server. */
export async function startService(config: Config, log: (line: string) => void = () => {}): Promise<RunningService> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let orm: Orm | undefined;
  let server: Server | undefined;
  let worker: SessionWorker | undefined;
  try {
    orm = await openOrm(database.url);
    const applied = await migrate(orm);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    if (config.bootstrapCredential) {
      await saveCredential(scopedEm(orm), { ...config.bootstrapCredential, role: 'admin' });
    }
    if (config.demo) {
      const { ensureDemoInstance } = await import('./demo/demo-instance.ts');
      await ensureDemoInstance(orm, log);
    }
    await migrateSessionQueue(database.url);
    worker = await startSessionWorker(orm, database.url);
    const app = createApp(orm);
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.port, '0.0.0.0', () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    await worker?.stop();
    await orm?.close();
    await database.stop();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const running = orm;
  const listening = server;
  const working = worker;
  return {
    url: `http://localhost:${port}`,
    port,
    orm: running,
    database,
    async stop() {
      await new Promise<void>((resolve) => { listening.close(() => resolve()); listening.closeAllConnections(); });
      await working.stop();
      await running.close();
      await database.stop();
    },
  };
}
