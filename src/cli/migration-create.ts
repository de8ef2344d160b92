// Development tool: diff the entities against the committed migrations on a throw-away
// embedded PostgreSQL, write the new migration and register it in src/migrations/index.ts.
// `--reset` drops every migration first and writes one initial migration (only while
// nothing has been released); `--redo-last` drops the newest migration (never the initial one)
// and writes it anew from the entities (while that migration is still unreleased).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';
import { migrations } from '../migrations/index.ts';
import { migrate, openOrm } from '../platform/orm.ts';
import { ormConfig } from '../../mikro-orm.config.ts';

const DIR = 'src/migrations';
const INDEX = join(DIR, 'index.ts');
const EMPTY_INDEX = `// Committed migrations, in order. \`npm run migration:create -- <name>\` adds one here.
// imports-end

export const migrations: { name: string; class: new (...args: any[]) => any }[] = [
// migrations-end
];
`;

/**
 * Database objects written by hand in migrations, which the ORM's schema diff does not model and
 * would otherwise drop or recreate in every new migration: the UUIDv7 function, the partial unique
 * index of billing items, the instance settings sequence, the outbox's commit-order triggers,
 * position sequence and settling function, and the reimbursement record's foreign key to its session.
 */
const HAND_WRITTEN = [/svc_uuidv7/, /billing_item_external_reference_unique/, /instance_settings/, /svc_event_commit_order/,
  /svc_event_commit_marker/, /svc_event_mark_first/, /svc_event_position/, /svc_event_settled_position/, /svc_event_svc_event_commit_\w*_fn/, /svc_event_commit_svc_event_commit_\w*_fn/, /cpo_charge_session_reimbursement_session_id_foreign/];

/** The migration without statements about hand-written objects; null when nothing else is left. */
function withoutHandWritten(code: string): string | null {
  const lines = code.split('\n').filter((line) => !(line.includes('this.addSql(') && HAND_WRITTEN.some((pattern) => pattern.test(line))));
  return lines.some((line) => line.includes('this.addSql(')) ? lines.join('\n') : null;
}

function dropLastMigration(): void {
  const files = readdirSync(DIR).filter((file) => /^Migration\d+_.*\.ts$/.test(file)).sort();
  const last = files.at(-1);
  if (!last || last.includes('_initial')) return;
  rmSync(join(DIR, last));
  const name = last.replace(/\.ts$/, '');
  // The list the ORM was configured with was imported before: drop the entry there too.
  const index = migrations.findIndex((m) => m.name === name);
  if (index >= 0) migrations.splice(index, 1);
  writeFileSync(INDEX, readFileSync(INDEX, 'utf8').split('\n').filter((line) => !line.includes(name)).join('\n'));
}

export async function createMigration(name: string, options: { reset?: boolean; redoLast?: boolean } = {}): Promise<void> {
  if (options.redoLast) dropLastMigration();
  if (options.reset) {
    for (const file of readdirSync(DIR)) if (/^Migration\d+_.*\.ts$/.test(file)) rmSync(join(DIR, file));
    writeFileSync(INDEX, EMPTY_INDEX);
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-migration-'));
  chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dataDir: dir, fast: true });
  try {
    const orm = await openOrm(ormConfig(db.url));
    await orm.em.getConnection().execute('create extension if not exists citext');
    // After --reset the migration list imported at start-up is stale: diff against an empty database.
    if (!options.reset) await migrate(orm);
    const result = await orm.migrator.create(DIR, false, false, name);
    await orm.close();
    if (!result.fileName) {
      console.log('no schema changes');
      return;
    }
    const file = basename(result.fileName);
    const path = join(DIR, file);
    const kept = withoutHandWritten(readFileSync(path, 'utf8'));
    if (kept === null) {
      rmSync(path);
      console.log('no schema changes (besides hand-written objects)');
      return;
    }
    writeFileSync(path, kept);
    if (options.reset) {
      const code = readFileSync(path, 'utf8').replace(
        /(override up\(\): void \| Promise<void> \{\n)/,
        '$1    this.addSql(`create extension if not exists citext;`);\n',
      );
      writeFileSync(path, code);
    }
    const className = /export class (\w+)/.exec(result.code)?.[1];
    const index = readFileSync(INDEX, 'utf8')
      .replace(/(\n\/\/ migrations-end)/, `\n  { name: '${file.replace(/\.ts$/, '')}', class: ${className} },$1`)
      .replace(/(\n\/\/ imports-end)/, `\nimport { ${className} } from './${file}';$1`);
    writeFileSync(INDEX, index);
    console.log(`created ${path}`);
  } finally {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
