// GraphQL limits (decisions.md "Limits (hostile input)"): a request is measured before it runs,
// so an oversized one costs a parse and a walk over its text, never a resolver or a database
// query. Over a limit: a GraphQL error with code QUERY_TOO_COMPLEX (HTTP 400).
import {
  getOperationAST, GraphQLError, Lexer, OperationTypeNode, Source, TokenKind, type ExecutionArgs, type ExecutionResult,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLErrorCode } from '../src/platform/error-codes.ts';
import { TIMED_OUT_MESSAGE } from '../src/platform/database-health.ts';
import { waitingForDatabase } from '../src/platform/request-database.ts';
import { UNAVAILABLE_EXTENSIONS } from './errors.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './connection.ts';
import { CostRefusal, documentShape, operationCost } from './query-cost.ts';

export const LIMITS = {
  /** Lexical tokens of a document; bounds parsing and validation. GraphiQL's introspection query has about 200. */
  tokens: 5_000,
  /**
   * Brackets, braces and parentheses open at once in a document, and arrays and objects in the
   * variables: bounds the recursion of parsing, validation and input coercion (a 5 KB list literal
   * 2,500 deep overflowed the parser's stack). 12 fields deep with arguments stays far below it.
   */
  nesting: 64,
  /** Nested fields (a connection's `edges { node }` is one level; `ofType` is none). */
  depth: 12,
  aliases: 100,
  /** Type listings (fields, inputFields, interfaces, ...) along one path of an introspection, as GraphiQL asks. */
  introspectionListings: 1,
  /**
   * `__schema` fields of a document (GraphiQL asks one), and `__type` fields: an introspection costs
   * no records, but under 100 aliases a 17 KB request answered 20 MB of schema.
   */
  schemaIntrospections: 1,
  typeIntrospections: 10,
  operations: 1,
  /** first/last of a connection. */
  pageSize: MAX_PAGE_SIZE,
  /** Records an operation may load, estimated by schema/query-cost.ts. */
  cost: 50_000,
  /** What a plain list of records (e.g. `administrations`) is taken to hold. */
  listEstimate: MAX_PAGE_SIZE,
  /** Run time of a query (not of a mutation: its service call finishes anyway); SVC_GRAPHQL_TIME_LIMIT_MS. */
  timeLimitMs: 10_000,
  /**
   * Characters of an answer's JSON (about its bytes), measured on the result before it is written: the
   * cost counts records, not their size, and under aliases one record of 50 KB of custom fields asked
   * 1,000 times (`nodes` of one id repeated) was answered with 50 MB (found by probing, 2026-11-29).
   */
  answerCharacters: 16 * 1024 * 1024,
};

// `spec: false`: Yoga answers a `spec` error with 200 to application/json clients; a limit is 400 for all.
function tooComplex(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX' satisfies GraphQLErrorCode, http: { status: 400, spec: false } } });
}

function timeLimitMs(): number {
  const raw = process.env.SVC_GRAPHQL_TIME_LIMIT_MS;
  return raw !== undefined && /^[1-9]\d*$/.test(raw) ? Number(raw) : LIMITS.timeLimitMs;
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** What makes `query` too large to parse: its tokens or its nesting, counted as the lexer reads it (stopping early); null when neither. */
function documentRefusal(query: string): string | null {
  const lexer = new Lexer(new Source(query));
  try {
    let depth = 0;
    for (let count = 0, token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++count > LIMITS.tokens) return `the document has more than ${LIMITS.tokens} tokens`;
      if (OPENING.has(token.kind) && ++depth > LIMITS.nesting) return `brackets, braces and parentheses nest more than ${LIMITS.nesting} deep`;
      if (CLOSING.has(token.kind)) depth--;
    }
  } catch {
    // a syntax error: the parser reports it
  }
  return null;
}

/** Whether arrays and objects in `value` nest more than `max` deep (walking no deeper than that). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max === 0) return true;
  for (const member of Array.isArray(value) ? value : Object.values(value)) {
    if (nestsDeeperThan(member, max - 1)) return true;
  }
  return false;
}

type Execute = (args: ExecutionArgs) => unknown;

/** Stops a query after `ms`: no resolver starts after that, and the answer does not wait for running ones. */
function withTimeLimit(execute: Execute, ms: number): Execute {
  return async (args) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('time limit')), ms);
    try {
      // The executor of graphql-yoga (@graphql-tools/executor) takes `signal`.
      return await execute({ ...args, signal: controller.signal } as ExecutionArgs);
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      // Stopped while waiting for the database: the database is what was slow (503, as its own bound would answer).
      if (waitingForDatabase()) return { data: null, errors: [new GraphQLError(TIMED_OUT_MESSAGE, { extensions: UNAVAILABLE_EXTENSIONS })] } satisfies ExecutionResult;
      const result: ExecutionResult = {
        data: null,
        errors: [new GraphQLError(`the query ran longer than ${ms} ms and was stopped`, { extensions: { code: 'QUERY_TIMEOUT' satisfies GraphQLErrorCode } })],
      };
      return result;
    } finally {
      clearTimeout(timer);
    }
  };
}

export const queryLimits: Plugin = {
  // Before parsing (a parse error would be HTTP 200 for application/json clients; this is 400).
  onParams({ params, setResult }) {
    const refusal = typeof params.query === 'string' ? documentRefusal(params.query) : null;
    if (refusal) return setResult({ errors: [tooComplex(refusal)] });
    // A POST body nests at most 32 deep (strict JSON); the variables of a GET are parsed by Yoga.
    if (nestsDeeperThan(params.variables, LIMITS.nesting)) {
      setResult({ errors: [tooComplex(`the variables nest more than ${LIMITS.nesting} deep`)] });
    }
  },
  onValidate({ params, setResult }) {
    const shape = documentShape(params.schema, params.documentAST);
    const problems: string[] = [];
    if (shape.operations > LIMITS.operations) problems.push(`a request may hold one operation; this one holds ${shape.operations}`);
    if (shape.aliases > LIMITS.aliases) problems.push(`${shape.aliases} aliases; at most ${LIMITS.aliases} are allowed`);
    if (shape.depth > LIMITS.depth) problems.push(`fields nest ${shape.depth} deep; at most ${LIMITS.depth} are allowed`);
    if (shape.introspectionListings > LIMITS.introspectionListings) {
      problems.push('introspection lists the members of a type (fields, inputFields, ...) below another such list');
    }
    if (shape.schemaIntrospections > LIMITS.schemaIntrospections) problems.push(`__schema is asked ${shape.schemaIntrospections} times; at most ${LIMITS.schemaIntrospections}`);
    if (shape.typeIntrospections > LIMITS.typeIntrospections) problems.push(`__type is asked ${shape.typeIntrospections} times; at most ${LIMITS.typeIntrospections}`);
    if (problems.length) setResult(problems.map(tooComplex));
  },
  onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return;
    let cost: number;
    try {
      cost = operationCost(args.schema, args.document, operation, args.variableValues ?? undefined, {
        defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: LIMITS.pageSize, listEstimate: LIMITS.listEstimate,
      });
    } catch (error) {
      if (!(error instanceof CostRefusal)) throw error;
      return setResultAndStopExecution({ errors: [tooComplex(error.message)] });
    }
    if (cost > LIMITS.cost) {
      return setResultAndStopExecution({
        errors: [tooComplex(`the query may load about ${cost} records; at most ${LIMITS.cost} are allowed (ask for smaller pages)`)],
      });
    }
    if (operation.operation === OperationTypeNode.QUERY) setExecuteFn(withTimeLimit(executeFn as Execute, timeLimitMs()) as typeof executeFn);
    return {
      onExecuteDone({ result, setResult }) {
        if (!isAsyncIterable(result) && longerThan(result.data, LIMITS.answerCharacters)) {
          setResult({ errors: [tooComplex(`the answer would be more than ${LIMITS.answerCharacters} characters; ask for fewer records or fields`)] });
        }
      },
    };
  },
};

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/**
 * Whether `value` written as JSON would be longer than `limit` characters, counted from its strings,
 * keys and items (numbers and literals as 8), stopping once over: a walk of the result's nodes, not
 * of its characters (a repeated record is one object referenced again and again).
 */
function longerThan(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += 8;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const member of item) stack.push(member);
    } else {
      for (const [key, member] of Object.entries(item)) {
        size += key.length + 4;
        stack.push(member);
      }
    }
    if (size > limit) return true;
  }
  return false;
}
