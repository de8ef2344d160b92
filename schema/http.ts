// /graphql: GraphiQL for a browser, else GraphQL over HTTP with the REST credentials, rate
// limit, body limits and administration scoping (one scoped EntityManager per request).
import { createYoga, shouldRenderGraphiQL } from 'graphql-yoga';
import type { Context, Next } from 'koa';
import type { Actor } from '../src/access/actor.ts';
import type { ErrorCode, GraphQLErrorCode } from '../src/platform/error-codes.ts';
import { DomainError } from '../src/platform/errors.ts';
import type { Em, Orm } from '../src/platform/orm.ts';
import { inScopedRequest } from '../src/access/admin-scope.ts';
import { runAs } from '../src/events/actor-context.ts';
import { basicAuth, type BasicAuthenticator } from '../src/platform/http/auth.ts';
import { assertNotCrossSiteWrite } from '../src/platform/http/cross-site.ts';
import { jsonBody } from '../src/platform/http/body.ts';
import { logger } from '../src/platform/log.ts';
import type { RateLimiter } from '../src/platform/http/rate-limit.ts';
import { createContext } from './context.ts';
import { graphiql } from './graphiql.ts';
import { GRAPHIQL_OPTIONS } from './graphiql-options.ts';
import { dateTimeLiterals } from './date-time-literals.ts';
import { answeredDatabaseUnavailable, domainErrors, errorExtensions } from './errors.ts';
import { schema } from './index.ts';
import { inputStrings } from './input-strings.ts';
import { queryLimits } from './limits.ts';
import { appCredentials, readOnlyCredentials } from './permissions.ts';
import { END_USER_HEADER } from './types/viewer.ts';
import { GRAPHQL_PATH } from './path.ts';

/** Yoga's own messages (an unexpected resolver error, masked in the answer) go to the service's log. */
function yogaLog(level: 'debug' | 'info' | 'warn' | 'error') {
  return (...args: unknown[]) => {
    const error = args.find((arg) => arg instanceof Error);
    const text = args.filter((arg) => typeof arg === 'string').join(' ') || (error as Error | undefined)?.message || 'GraphQL';
    logger()[level](error ? { err: error } : {}, `graphql: ${text}`);
  };
}
const yogaLogger = { debug: yogaLog('debug'), info: yogaLog('info'), warn: yogaLog('warn'), error: yogaLog('error') };

interface ServerContext {
  em?: Em;
  actor?: Actor;
  endUserId?: string | null;
  origin?: string;
}

const TRANSPORT_ERRORS: Partial<Record<ErrorCode, { status: number; code: GraphQLErrorCode }>> = {
  unauthorized: { status: 401, code: 'UNAUTHENTICATED' },
  forbidden: { status: 403, code: 'FORBIDDEN' },
  rate_limited: { status: 429, code: 'RATE_LIMITED' },
};

function answerError(ctx: Context, status: number, extensions: Record<string, unknown>, message: string): void {
  ctx.status = status;
  ctx.body = { errors: [{ message, extensions }] };
  if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="main"');
}

function answerDomainError(ctx: Context, error: DomainError): void {
  const transport = TRANSPORT_ERRORS[error.code];
  const extensions = transport ? { code: transport.code } : errorExtensions(error);
  answerError(ctx, transport?.status ?? 400, extensions, error.message);
}

function toRequest(ctx: Context, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const init: RequestInit = { method: ctx.method, headers };
  // The body was read as JSON here (any `+json` type): yoga reads it as the JSON it is.
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers.set('content-type', 'application/json');
  }
  return new Request(new URL(ctx.originalUrl, 'http://localhost'), init);
}

async function respond(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') ctx.set(name, value);
  });
  ctx.body = Buffer.from(await response.arrayBuffer());
}

/**
 * A GET's `variables` and `extensions` are JSON in the query string (yoga answered 500 to one it could
 * not parse); their nesting is bounded with the query's (limits.ts), before yoga parses them.
 */
function checkJsonParameters(ctx: Context): void {
  for (const name of ['variables', 'extensions']) {
    const value = ctx.query[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) throw new DomainError('invalid_query', `query parameter ${name} is given more than once`, { queryParam: name });
    try {
      JSON.parse(value);
    } catch (error) {
      throw new DomainError('invalid_query', `query parameter ${name} is not JSON: ${(error as Error).message}`, { queryParam: name });
    }
  }
}

function isJsonType(ctx: Context): boolean {
  const type = ctx.request.type;
  return type === 'application/json' || type.endsWith('+json');
}

export function graphqlMiddleware(orm: Orm, authenticator: BasicAuthenticator, limiter: RateLimiter) {
  const page = graphiql(GRAPHQL_PATH);
  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // No CORS: a browser holding Basic credentials must not let other sites read answers.
    cors: false,
    landingPage: false,
    multipart: false,
    logging: yogaLogger,
    graphiql: GRAPHIQL_OPTIONS,
    renderGraphiQL: page.page,
    context: ({ em, actor, endUserId, origin }) => {
      if (!em || !actor) throw new Error('GraphQL executed without an authenticated caller');
      return createContext(em, actor, endUserId ?? null, origin);
    },
    plugins: [queryLimits, inputStrings, domainErrors, readOnlyCredentials, appCredentials, dateTimeLiterals],
  });
  const authenticate = basicAuth(authenticator, limiter);

  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith(page.assetsPath)) return page.serveAsset(ctx);
    if (ctx.path !== GRAPHQL_PATH) return next();
    // GraphQL goes by GET and POST only, answered as yoga answers other methods: before authentication,
    // and before fetch's Request, which throws for TRACE, TRACK and CONNECT (a 500, found by probing).
    if (ctx.method !== 'GET' && ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, POST');
      ctx.status = 405;
      ctx.body = { errors: [{ message: 'GraphQL only supports GET and POST requests.' }] };
      return;
    }
    if (shouldRenderGraphiQL({ method: ctx.method, headers: new Headers({ accept: ctx.get('accept') }) } as Request)) {
      return respond(ctx, await yoga.fetch(toRequest(ctx, undefined), {}));
    }
    try {
      assertNotCrossSiteWrite(ctx);
      await authenticate(ctx, async () => {});
      if (ctx.method === 'POST' && !isJsonType(ctx)) {
        throw new DomainError('unsupported_content_type', 'the body must be application/json', { path: [] });
      }
      await jsonBody(ctx, async () => {});
      if (ctx.method === 'GET') checkJsonParameters(ctx);
    } catch (error) {
      if (error instanceof DomainError) return answerDomainError(ctx, error);
      if (answeredDatabaseUnavailable(ctx, error)) return;
      throw error;
    }
    const actor = ctx.state.actor as Actor;
    // App credentials read through `viewer` only (schema/permissions.ts), for the end user of this header.
    const endUserId = actor.role === 'app' ? (ctx.get(END_USER_HEADER) || null) : null;
    const response = await runAs(actor.publicId, () => inScopedRequest(orm, actor.scope,
      (em) => yoga.fetch(toRequest(ctx, ctx.state.body), { em, actor, endUserId, origin: `${ctx.protocol}://${ctx.host}` })));
    return respond(ctx, response);
  };
}
