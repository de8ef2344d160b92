// One definition per operation: the router mounts it, the OpenAPI document describes it.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type * as yup from 'yup';
import type { Actor } from '../../src/access/actor.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { Em } from '../../src/platform/orm.ts';
import type { OffsetPage, Page } from './pagination.ts';
import type { Field, FileAnswer } from './shape.ts';
import { UNKNOWN_FIELDS_LISTED, unknownFieldsHeader, urlValueFailure } from './input-guards.ts';
import { memberPath } from '../../src/platform/json-path.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { checkedBody, declaredMembers } from './validation.ts';
import { batchItems, type BodyItems } from './batch.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface RouteInput<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The raw query string values, for pagination and link_next. */
  rawQuery: Record<string, string>;
  em: Em;
  actor: Actor;
  ctx: Context;
}

export type Paging = boolean | 'offset' | undefined;

/** What a success answers: the response shape, or a page of it. */
export type Served<T, P extends Paging> = P extends 'offset' ? OffsetPage<T> : P extends true ? Page<T> : T;

export interface RouteDef<B = any, Q = any, T = any, P extends Paging = Paging> {
  method: Method;
  /** Koa path below /main/v1, e.g. `/customer/:id`. */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  deprecated?: boolean;
  /** An operation this service offers beyond the interface spec. */
  extension?: boolean;
  /** `app` routes serve the App API (paths under /:end_user_id/). */
  api?: 'admin' | 'app';
  body?: yup.ObjectSchema<any>;
  /** The body may be omitted (treated as {}). */
  bodyOptional?: boolean;
  /**
   * A batch: the body is a JSON array of 1 to `max` items, each of which the handler checks against
   * `schema` (`readItems`, rest/rails/batch.ts), so that one item's failure is that item's answer.
   */
  bodyItems?: BodyItems;
  /** A body larger than MAX_BODY_BYTES (src/platform/http/body.ts) this operation takes (a batch). */
  maxBodyBytes?: number;
  query?: yup.ObjectSchema<any>;
  paged?: P;
  createdGt?: boolean;
  /**
   * The representation a success answers (of each item, when paged): the OpenAPI document's schema,
   * and the type the handler must return.
   */
  response: Field<T>;
  /** Content types of a file answer (the handler returns a FileAnswer); `response` then documents nothing. */
  produces?: string[];
  /** Content types of a raw upload the operation takes (ctx.state.upload) beside or instead of JSON. */
  consumes?: string[];
  status?: number;
  /**
   * The GraphQL field doing the same (a Mutation field for a write, or a Query field for a POST that
   * only reads): test/schema/mutation-parity.test.ts holds every write operation to one.
   */
  graphql?: string;
  handler(input: RouteInput<B, Q>): Promise<NoInfer<Served<T, P>>>;
}

export type { FileAnswer } from './shape.ts';

/** The types of file answers shown in the browser (nothing in them runs script); any other is an attachment. */
const SHOWN_INLINE = new Set(['application/pdf', 'image/png']);

export const isFileAnswer = (value: unknown): value is FileAnswer =>
  typeof value === 'object' && value !== null && 'file' in value && Buffer.isBuffer((value as FileAnswer).file?.bytes);

export function defineRoute<B = any, Q = any, T = unknown, P extends Paging = undefined>(def: RouteDef<B, Q, T, P>): RouteDef<B, Q> {
  return def as RouteDef<B, Q>;
}

const PAGING_PARAMS = ['after', 'page_size', 'created_gt', 'page'];

/** The query as a null-prototype map: a parameter named `toString` or `__proto__` is just a name. */
function queryObject(ctx: Context): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) {
      throw new DomainError('invalid_query', `query parameter ${key} is given more than once`, { queryParam: key });
    }
    const failure = urlValueFailure(key) ?? (value === undefined ? null : urlValueFailure(value));
    if (failure) throw new DomainError('invalid_query', `query parameter ${key} ${failure}`, { queryParam: key });
    if (value !== undefined) result[key] = value;
  }
  return result;
}

function checkPath(params: Record<string, string>): void {
  for (const value of Object.values(params)) {
    const failure = urlValueFailure(value);
    if (failure) throw new DomainError('invalid_path', `a path segment ${failure}`);
  }
}

function checkPermission(def: RouteDef, actor: Actor): void {
  const api = def.api ?? 'admin';
  if ((api === 'app') !== (actor.role === 'app')) {
    throw new DomainError('forbidden', `this credential cannot call the ${api === 'app' ? 'App' : 'Admin'} API`);
  }
  if (actor.role === 'readonly' && def.method !== 'get') {
    throw new DomainError('forbidden', 'this credential may only read');
  }
}

export function mountRoutes(router: Router, routes: RouteDef[]): void {
  for (const def of routes) {
    router[def.method](def.path, async (ctx: Context) => {
      const actor = ctx.state.actor as Actor;
      checkPermission(def, actor);
      checkPath(ctx.params as Record<string, string>);
      const rawQuery = queryObject(ctx);
      const filters = Object.fromEntries(Object.entries(rawQuery).filter(([key]) => !PAGING_PARAMS.includes(key)));
      const query = def.query ? validate(def.query, declaredMembers(def.query, filters), 'query') : {};
      const upload = ctx.state.upload as { contentType: string } | undefined;
      if (upload && !def.consumes?.includes(upload.contentType)) {
        throw new DomainError('unsupported_content_type', `this operation takes no ${upload.contentType} body`, { path: [] });
      }
      let body: unknown = ctx.state.body;
      if (def.body) {
        if (body === undefined && def.bodyOptional) body = {};
        body = checkedBody(def.body, body, (unknown) => ctx.set('X-SVC-Unknown-Fields', unknownFieldsHeader(unknown)));
      } else if (def.bodyItems) {
        body = batchItems(def.bodyItems, body, (unknown) => ctx.set('X-SVC-Unknown-Fields', unknownFieldsHeader(unknown)));
      } else if (body !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
        const unknown = Object.keys(body).slice(0, UNKNOWN_FIELDS_LISTED + 1).map((key) => memberPath('$', key));
        if (unknown.length) ctx.set('X-SVC-Unknown-Fields', unknownFieldsHeader(unknown));
      }
      const result = await def.handler({
        body, query, params: ctx.params as Record<string, string>, rawQuery, em: ctx.state.em as Em, actor, ctx,
      });
      ctx.status = def.status ?? 200;
      if (isFileAnswer(result)) {
        ctx.type = result.file.contentType;
        // A stored file a browser could run script in (an SVG logo, an uploaded XML document) is a
        // download in a sandbox: it runs nothing on this origin. PDFs and PNGs are shown.
        const inline = SHOWN_INLINE.has(result.file.contentType);
        if (!inline) ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
        ctx.set('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${result.file.filename.replace(/[^\w.-]/g, '_')}"`);
        ctx.body = result.file.bytes;
      } else {
        ctx.body = result ?? {};
      }
    });
  }
}
