// Committed migrations, in order. `npm run migration:create -- <name>` adds one here.
import { Migration20261122090752_initial } from './Migration20261122090752_initial.ts';
// imports-end

export const migrations: { name: string; class: new (...args: any[]) => any }[] = [
  { name: 'Migration20261122090752_initial', class: Migration20261122090752_initial },
// migrations-end
];
