// Committed migrations, in order. `npm run migration:create -- <name>` adds one here.
import { Migration20261122074821_initial } from './Migration20261122074821_initial.ts';
// imports-end

export const migrations: { name: string; class: new (...args: any[]) => any }[] = [
  { name: 'Migration20261122074821_initial', class: Migration20261122074821_initial },
// migrations-end
];
