import { startEmbeddedPostgres } from './embedded-postgres.ts';

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when given, else an embedded PostgreSQL in `dataDir`. */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string; log?: (line: string) => void; detached?: boolean }): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };
  const pg = await startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, detached: options.detached });
  return { url: pg.url, embedded: true, stop: () => pg.stop() };
}
