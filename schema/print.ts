// npm run schema:print: writes the SDL of the GraphQL API to schema/schema.graphql.
import { writeFileSync } from 'node:fs';
import { printSdl } from './index.ts';

const path = new URL('./schema.graphql', import.meta.url);
writeFileSync(path, printSdl());
console.log(`wrote ${path.pathname}`);
