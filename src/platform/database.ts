import { startEmbeddedPostgres } from './embedded-postgres.ts';

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when given, else an embedded PostgreSQL in `dataDir`. */
export async function openDatabase(options: {
  databaseUrl?: string; dataDir: string; log?: (line: string) => void; detached?: boolean;
  /** An embedded PostgreSQL is started again when it dies, each restart logged here (an external one is the operator's). */
  supervise?: (line: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };
  const pg = await startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, detached: options.detached, supervise: options.supervise });
  return { url: pg.url, embedded: true, stop: () => pg.stop() };
}
