// `npm run cli -- <command>`: operator commands against the same database as the service
// (DATABASE_URL, or the embedded PostgreSQL in SVC_DATA_DIR, joined when a service runs on it).
import { saveCredential } from './credentials/save-credential.service.ts';
import type { Role } from './access/credential.entity.ts';
import { one, parseArgs, parseFlags } from './cli/args.ts';
import { createMigration } from './cli/migration-create.ts';
import { progressLine, type Progress } from './cli/progress.ts';
import { readSetupFile } from './cli/read-setup-file.ts';
import { applySetup } from './setup/apply-setup.service.ts';
import { ensureDemoInstance } from './demo/demo-instance.ts';
import { createAdministration, createSeller, updateAdministration } from './parties/create-administration.service.ts';
import { SYSTEM_ACTOR } from './access/actor.ts';
import { credentialList } from './credentials/credential.queries.ts';
import { revokeCredential } from './credentials/manage-credentials.service.ts';
import { readConfig } from './platform/config.ts';
import { openDatabase } from './platform/database.ts';
import { DomainError } from './platform/errors.ts';
import { migrate, openOrm, type Orm } from './platform/orm.ts';
import { withStartupLock } from './platform/startup-lock.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from './access/admin-scope.ts';
import { migrateJobQueue } from './worker/worker.ts';
import { jsonPath } from './platform/json-path.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { registerItemSources } from './item-sources.ts';

const USAGE = `usage: npm run cli -- <command>
  administration create --id <slug> --name <name> --currency <ISO> --country <CC> [--seller <seller id>] [--locale <id>]
  administration update --id <slug> [--name <name>] [--locale <id>] [--seller <seller id>]
  seller create --name <name> --country <CC> [--external-reference <ref>]
  credential create --public-id <id> --secret <secret> [--admin <admin id>]... [--role admin|readonly|app] [--rate-limit <per minute>] [--site <end-user site id>]
  credential list   (public ids, roles, administrations, revoked; never a secret)
  credential revoke --public-id <id>   (a running service stops accepting it within a minute)
  setup apply <file.json> [--dry-run]   (administrations, VAT rates, rate plans, subscription plans: docs/setup.md)
  migrate
  demo
  migration-create <name> [--reset | --redo-last]   (development: write a migration from the entities)`;

/** The database (started or joined), migrated; `work` runs with the progress line of the command. */
async function withOrm(work: (orm: Orm, progress: Progress) => Promise<void>): Promise<void> {
  const config = readConfig();
  registerRestEventRenderers();
  registerItemSources();
  const progress = progressLine();
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, progress: (line) => progress.step(line) });
    const orm = await openOrm(ormConfig(database.url, { poolMax: 2 }));
    try {
      await withStartupLock(database.url, async () => {
        await migrate(orm, (done, total, name) => progress.step(`migrations: ${done} of ${total} applied (${name})`));
        await migrateJobQueue(database.url);
      });
      progress.done();
      await work(orm, progress);
    } finally {
      await orm.close();
      await database.stop();
    }
  } finally {
    progress.done();
  }
}

async function main(argv: string[]): Promise<void> {
  const [noun, verb, ...rest] = argv;
  const command = `${noun ?? ''} ${verb ?? ''}`.trim();
  // Every command refuses what it does not take (a misspelled option is never ignored): cli/args.ts.
  if (noun === 'migration-create') {
    const args = parseArgs(argv.slice(1), { switches: ['reset', 'redo-last'], positionals: 1 });
    return createMigration(args.positionals[0] ?? 'change', { reset: args.switches.has('reset'), redoLast: args.switches.has('redo-last') });
  }
  if (command === 'setup apply') {
    const args = parseArgs(rest, { switches: ['dry-run'], positionals: 1 });
    const file = args.positionals[0];
    if (!file) throw new Error('setup apply needs a file: npm run cli -- setup apply <file.json>');
    const dryRun = args.switches.has('dry-run');
    const document = readSetupFile(file);
    return withOrm(async (orm, progress) => {
      const report = await applySetup(scopedEm(orm), document, { dryRun, progress: (step) => progress.step(`setup: ${step}`) });
      progress.done();
      console.log(JSON.stringify({ dry_run: dryRun, ...report }));
    });
  }
  if (noun === 'migrate' || noun === 'demo') parseArgs(argv.slice(1), {});
  if (noun === 'migrate') return withOrm(async () => console.log('migrations applied'));
  if (noun === 'demo') return withOrm((orm) => ensureDemoInstance(orm, console.log));
  if (command === 'credential list') parseArgs(rest, {});
  if (command === 'administration create') {
    const flags = parseFlags(rest, ['id', 'name', 'currency', 'country', 'seller', 'locale']);
    return withOrm(async (orm) => {
      const admin = await createAdministration(scopedEm(orm), {
        id: one(flags, 'id', true), name: one(flags, 'name', true), currency: one(flags, 'currency', true),
        country: one(flags, 'country', true), sellerId: one(flags, 'seller'), localeId: one(flags, 'locale'),
      });
      console.log(JSON.stringify({ id: admin.id, name: admin.name, currency: admin.currency, country: admin.country, seller_id: admin.seller?.id ?? null }));
    });
  }
  if (command === 'administration update') {
    const flags = parseFlags(rest, ['id', 'name', 'locale', 'seller']);
    return withOrm(async (orm) => {
      const admin = await updateAdministration(scopedEm(orm), one(flags, 'id', true), {
        name: one(flags, 'name'), localeId: one(flags, 'locale'), sellerId: one(flags, 'seller'),
      });
      console.log(JSON.stringify({ id: admin.id, name: admin.name, locale_id: admin.localeId ?? null, seller_id: admin.seller?.id ?? null }));
    });
  }
  if (command === 'credential list') {
    return withOrm(async (orm) => {
      for (const c of await credentialList(scopedEm(orm), SYSTEM_ACTOR).all()) {
        console.log(JSON.stringify({ public_id: c.publicId, role: c.role, admin_ids: c.adminIds, revoked_at: c.revokedAt?.toISOString() ?? null }));
      }
    });
  }
  if (command === 'credential revoke') {
    const flags = parseFlags(rest, ['public-id']);
    return withOrm(async (orm) => {
      const credential = await revokeCredential(scopedEm(orm), SYSTEM_ACTOR, one(flags, 'public-id', true));
      console.log(JSON.stringify({ public_id: credential.publicId, revoked_at: credential.revokedAt?.toISOString() ?? null }));
    });
  }
  if (command === 'seller create') {
    const flags = parseFlags(rest, ['name', 'country', 'external-reference']);
    return withOrm(async (orm) => {
      const seller = await createSeller(scopedEm(orm), { name: one(flags, 'name', true), country: one(flags, 'country', true), externalReference: one(flags, 'external-reference') });
      console.log(JSON.stringify({ id: seller.id, name: seller.name, country: seller.country }));
    });
  }
  if (command === 'credential create') {
    const flags = parseFlags(rest, ['public-id', 'secret', 'admin', 'role', 'rate-limit', 'site']);
    const rateLimit = one(flags, 'rate-limit');
    if (rateLimit !== undefined && !/^\d+$/.test(rateLimit)) throw new Error('--rate-limit must be a whole number');
    return withOrm(async (orm) => {
      const credential = await saveCredential(scopedEm(orm), {
        publicId: one(flags, 'public-id', true), secret: one(flags, 'secret', true),
        role: (one(flags, 'role') ?? 'admin') as Role, adminIds: flags.get('admin') ?? [],
        rateLimitPerMinute: rateLimit === undefined ? null : Number(rateLimit),
        siteId: one(flags, 'site') ?? null,
      });
      console.log(JSON.stringify({ public_id: credential.publicId, role: credential.role, admin_ids: credential.adminIds }));
    });
  }
  console.error(USAGE);
  process.exitCode = 2;
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // A failure in the setup file names its place there as REST names it in a body (a JSONPath).
  console.error(error instanceof DomainError ? `${error.code}: ${error.fieldPath ? `${jsonPath(error.fieldPath)}: ` : ''}${error.message}` : (error as Error).message);
  process.exitCode = 1;
}
