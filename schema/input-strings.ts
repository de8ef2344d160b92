// Every string a GraphQL request brings, in its variables or written into the query, is bounded
// like a REST body's (src/platform/input-limits.ts): at most 10,000 characters, no control
// characters but tab and line breaks (PostgreSQL text cannot hold U+0000). Checked before parsing.
import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_INPUT_STRING, TEXT_CONTROL } from '../src/platform/input-limits.ts';
import { jsonPath } from '../src/platform/json-path.ts';
import type { FieldPath } from '../src/platform/field-path.ts';
import { LIMITS } from './limits.ts';

function failureOf(value: string): string | null {
  if (value.length > MAX_INPUT_STRING) return `must be at most ${MAX_INPUT_STRING} characters`;
  if (TEXT_CONTROL.test(value)) return 'must not hold control characters other than tab and line breaks';
  return null;
}

/** The first bad string among the variables, with its place (`$.input.name`); deeper than the nesting limit is schema/limits.ts's to refuse. */
function badVariable(value: unknown, path: FieldPath): { param: string; message: string } | null {
  if (path.length > LIMITS.nesting) return null;
  if (typeof value === 'string') {
    const failure = failureOf(value);
    return failure ? { param: jsonPath(path), message: `${jsonPath(path).slice(2)} ${failure}` } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, member] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = (typeof key === 'string' ? failureOf(key) : null) ? { param: jsonPath(path), message: 'a member name holds control characters or is too long' }
      : badVariable(member, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The first bad string literal of the query text. */
function badLiteral(query: string): string | null {
  const lexer = new Lexer(new Source(query));
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind !== TokenKind.STRING && token.kind !== TokenKind.BLOCK_STRING) continue;
      const failure = failureOf(token.value ?? '');
      if (failure) return `a string in the query (line ${token.line}) ${failure}`;
    }
  } catch {
    // a syntax error: the parser reports it
  }
  return null;
}

const refused = (message: string, param?: string) => new GraphQLError(message, {
  extensions: { code: 'validation_failed', ...(param ? { param } : {}), http: { status: 400, spec: false } },
});

export const inputStrings: Plugin = {
  onParams({ params, setResult }) {
    const variable = badVariable(params.variables ?? {}, []);
    if (variable) return setResult({ errors: [refused(variable.message, variable.param)] });
    const literal = typeof params.query === 'string' ? badLiteral(params.query) : null;
    if (literal) setResult({ errors: [refused(literal)] });
  },
};
