import { startEmbeddedPostgres } from './embedded-postgres.ts';

export interface Database {
  url: string;
  embedded: boolean;
  /** An embedded PostgreSQL another service started and runs (its pid): this process joined it. */
  joinedService: number | null;
  stop(): Promise<void>;
}

/** DATABASE_URL when given, else an embedded PostgreSQL in `dataDir`. */
export async function openDatabase(options: {
  databaseUrl?: string; dataDir: string; log?: (line: string) => void; detached?: boolean;
  /** Start-up phases of an embedded PostgreSQL (creating, starting, joining), one line each. */
  progress?: (line: string) => void;
  /** An embedded PostgreSQL is started again when it dies, each restart logged here (an external one is the operator's). */
  supervise?: (line: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, joinedService: null, stop: async () => {} };
  const pg = await startEmbeddedPostgres({
    dataDir: options.dataDir, log: options.log, progress: options.progress, detached: options.detached, supervise: options.supervise,
  });
  return { url: pg.url, embedded: true, joinedService: pg.joinedService, stop: () => pg.stop() };
}
