// Every string a GraphQL request brings, in its variables or written into the query, is bounded
// like a REST body's (src/platform/input-limits.ts): at most 10,000 characters, no control
// characters but tab and line breaks (PostgreSQL text cannot hold U+0000). Checked before parsing.
// Then, with the document parsed and valid, before any resolver: a value given to an identifier
// argument or input field (ids, references, codes, usernames, emails; the rule of REST's members,
// src/platform/identifier-members.ts) holds no control character at all, tab and line breaks included.
import { getOperationAST, GraphQLError, Kind, Lexer, Source, TokenKind, visit, type DocumentNode, type ValueNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_INPUT_STRING } from '../src/platform/input-limits.ts';
import { controlFailure, isIdentifierField } from '../src/platform/identifier-members.ts';
import { jsonPath } from '../src/platform/json-path.ts';
import type { FieldPath } from '../src/platform/field-path.ts';
import { LIMITS } from './limits.ts';

function failureOf(value: string): string | null {
  if (value.length > MAX_INPUT_STRING) return `must be at most ${MAX_INPUT_STRING} characters`;
  return controlFailure(value, false);
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

type Refusal = { param: string; message: string };

function identifierRefusal(value: string, path: FieldPath): Refusal | null {
  const failure = controlFailure(value, true);
  return failure ? { param: jsonPath(path), message: `${jsonPath(path).slice(2)} ${failure}` } : null;
}

/**
 * The first string below a variable's value (as the client sent it) that breaks the identifier rule:
 * `member` is the argument or input field it is given to, and each object member below names its own
 * values (as REST's walk of a body does). Nesting is bounded before (limits.ts).
 */
function badIdentifierValue(value: unknown, member: string, path: FieldPath): Refusal | null {
  if (typeof value === 'string') return isIdentifierField(member) ? identifierRefusal(value, path) : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = badIdentifierValue(item, member, [...path, i]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = badIdentifierValue(item, key, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The same for a value written into the document: literals, list items, input object fields, variables (or their defaults). */
function badIdentifierNode(node: ValueNode, member: string, path: FieldPath, variables: Record<string, unknown>, defaults: Map<string, ValueNode>): Refusal | null {
  switch (node.kind) {
    case Kind.STRING: return isIdentifierField(member) ? identifierRefusal(node.value, path) : null;
    case Kind.LIST:
      for (const [i, item] of node.values.entries()) {
        const found = badIdentifierNode(item, member, [...path, i], variables, defaults);
        if (found) return found;
      }
      return null;
    case Kind.OBJECT:
      for (const field of node.fields) {
        const found = badIdentifierNode(field.value, field.name.value, [...path, field.name.value], variables, defaults);
        if (found) return found;
      }
      return null;
    case Kind.VARIABLE: {
      const name = node.name.value;
      if (Object.hasOwn(variables, name)) return badIdentifierValue(variables[name], member, path);
      const fallback = defaults.get(name);
      return fallback ? badIdentifierNode(fallback, member, path, variables, defaults) : null;
    }
    default: return null;
  }
}

/** The first identifier argument (of any field or directive of the document) given a control character; its place is the argument's (`$.input.externalReference`). */
function badIdentifierArgument(document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown>): Refusal | null {
  const defaults = new Map<string, ValueNode>();
  for (const definition of getOperationAST(document, operationName)?.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults.set(definition.variable.name.value, definition.defaultValue as ValueNode);
  }
  let found: Refusal | null = null;
  visit(document, {
    Argument(node) {
      found ??= badIdentifierNode(node.value, node.name.value, [node.name.value], variables, defaults);
      return false;
    },
  });
  return found;
}

export const inputStrings: Plugin = {
  onParams({ params, setResult }) {
    const variable = badVariable(params.variables ?? {}, []);
    if (variable) return setResult({ errors: [refused(variable.message, variable.param)] });
    const literal = typeof params.query === 'string' ? badLiteral(params.query) : null;
    if (literal) setResult({ errors: [refused(literal)] });
  },
  onExecute({ args, setResultAndStopExecution }) {
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const identifier = badIdentifierArgument(args.document, args.operationName, variables);
    if (identifier) setResultAndStopExecution({ errors: [refused(identifier.message, identifier.param)] });
  },
};
