import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { requestDatabaseTimeoutMs } from './request-database.ts';
import { StartupError } from './startup-error.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The product version (decisions.md: starts at 4.9.0, semver). */
export const PRODUCT_VERSION: string = pkg.version;
export const API_VERSIONS = ['v1'] as const;

export interface Config {
  port: number;
  /** The address the HTTP server binds (loopback by default). */
  host: string;
  databaseUrl?: string;
  dataDir: string;
  demo: boolean;
  bootstrapCredential?: { publicId: string; secret: string };
  /** SVC_REQUEST_DB_TIMEOUT_MS: how long an HTTP request may wait for the database in all (src/platform/request-database.ts). */
  requestDatabaseTimeoutMs: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const bootstrap = env.SVC_BOOTSTRAP_CREDENTIAL;
  let bootstrapCredential: Config['bootstrapCredential'];
  if (bootstrap) {
    const colon = bootstrap.indexOf(':');
    if (colon <= 0 || colon === bootstrap.length - 1) {
      throw new StartupError('SVC_BOOTSTRAP_CREDENTIAL must be public_id:secret');
    }
    bootstrapCredential = { publicId: bootstrap.slice(0, colon), secret: bootstrap.slice(colon + 1) };
  }
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StartupError(`PORT is not a port: ${env.PORT}`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.SVC_DATA_DIR || '.data'),
    demo: env.SVC_DEMO !== '0',
    bootstrapCredential,
    requestDatabaseTimeoutMs: requestDatabaseTimeoutMs(env),
  };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:/, '');
  return address === 'localhost' || address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}
