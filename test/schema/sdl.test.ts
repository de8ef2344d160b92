import { readFileSync } from 'node:fs';
import test from 'ava';
import { printSdl } from '../../schema/index.ts';

test('schema/schema.graphql is the printed schema (run `npm run schema:print` after changing it)', (t) => {
  t.is(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'), printSdl());
});
