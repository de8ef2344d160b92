// Committed migrations, in order. `npm run migration:create -- <name>` adds one here.
import { Migration20261122082120_initial } from './Migration20261122082120_initial.ts';
// imports-end

export const migrations: { name: string; class: new (...args: any[]) => any }[] = [
  { name: 'Migration20261122082120_initial', class: Migration20261122082120_initial },
// migrations-end
];
