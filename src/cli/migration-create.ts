// Development tool: diff the entities against the committed migrations on a throw-away
// embedded PostgreSQL, write the new migration and register it in src/migrations/index.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';
import { migrate, openOrm } from '../platform/orm.ts';

export async function createMigration(name: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migration-'));
  chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dataDir: dir, fast: true });
  try {
    const orm = await openOrm(db.url);
    await orm.em.getConnection().execute('create extension if not exists citext');
    await migrate(orm);
    const result = await orm.migrator.create('src/migrations', false, false, name);
    await orm.close();
    if (!result.fileName) {
      console.log('no schema changes');
      return;
    }
    const file = basename(result.fileName);
    const className = /export class (\w+)/.exec(result.code)?.[1];
    const indexPath = 'src/migrations/index.ts';
    const index = readFileSync(indexPath, 'utf8')
      .replace(/(\n\/\/ migrations-end)/, `\n  { name: '${file.replace(/\.ts$/, '')}', class: ${className} },$1`)
      .replace(/(\n\/\/ imports-end)/, `\nimport { ${className} } from './${file}';$1`);
    writeFileSync(indexPath, index);
    console.log(`created src/migrations/${file}`);
  } finally {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
