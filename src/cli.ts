import { createMigration } from './cli/migration-create.ts';

const [command, ...args] = process.argv.slice(2);
if (command === 'migration-create') {
  const reset = args.includes('--reset');
  await createMigration(args.find((a) => !a.startsWith('--')) ?? 'change', { reset });
} else {
  console.error(`unknown command: ${command ?? ''}`);
  process.exit(2);
}
