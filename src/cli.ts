import { createMigration } from './cli/migration-create.ts';

const [command, ...args] = process.argv.slice(2);
if (command === 'migration-create') {
  await createMigration(args[0] ?? 'change');
} else {
  console.error(`unknown command: ${command ?? ''}`);
  process.exit(2);
}
