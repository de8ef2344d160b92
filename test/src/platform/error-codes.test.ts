// The catalogue of error codes is published in docs/errors.md: the page lists exactly the
// catalogue's codes, each with its status and meaning, so neither can drift from the other; the
// OpenAPI document lists them as the values of Error.code.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { ERROR_CODES, GRAPHQL_ERROR_CODES } from '../../../src/platform/error-codes.ts';
import { buildOpenApi } from '../../../rest/rails/openapi.ts';
import { routes } from '../../../rest/routes.ts';

const page = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** The rows `| \`code\` | status | meaning |` of the table in the section starting with `heading`. */
function rows(heading: string): string[] {
  const section = page.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`docs/errors.md has no section ${heading}`);
  return section.split('\n').filter((line) => /^\| `/.test(line));
}

const expected = (catalogue: Record<string, { status: number; meaning: string }>) =>
  Object.entries(catalogue).map(([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${meaning} |`);

test('docs/errors.md lists exactly the REST catalogue: code, HTTP status, meaning', (t) => {
  t.deepEqual(rows('REST'), expected(ERROR_CODES));
});

test('docs/errors.md lists exactly the GraphQL-only codes', (t) => {
  t.deepEqual(rows('GraphQL'), expected(GRAPHQL_ERROR_CODES));
});

test('the OpenAPI document names the catalogue as the values of Error.code', (t) => {
  const doc = buildOpenApi(routes, '/main/v1') as any;
  t.deepEqual(doc.components.schemas.Error.properties.code.enum, Object.keys(ERROR_CODES));
});

test('no code is in both lists, and the codes clients see keep their spelling (snake case, GraphQL upper case)', (t) => {
  for (const code of Object.keys(ERROR_CODES)) t.regex(code, /^[a-z][a-z0-9_]*$/, code);
  for (const code of Object.keys(GRAPHQL_ERROR_CODES)) t.regex(code, /^[A-Z][A-Z_]*$/, code);
  t.true(Object.keys(ERROR_CODES).length >= 40);
});
