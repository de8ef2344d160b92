import type { Context, Next } from 'koa';
import { DomainError } from '../errors.ts';
import { parseStrictJson } from './strict-json.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Documents (and billing logos) are uploaded as raw bytes of these types (decisions.md: up to 10 MB); every other body is JSON. */
export const UPLOAD_TYPES = ['application/pdf', 'application/xml', 'image/png', 'image/svg+xml'];
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Past the limit the rest of the body is read and dropped rather than the socket destroyed,
 * so that the client receives the 400 (up to a hard cap, where the connection is cut).
 */
function readRaw(ctx: Context, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => new DomainError('body_too_large', `the body exceeds ${limit} bytes`, { path: [] });
  const MAX_BODY_BYTES = limit;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      } else if (size - chunk.length <= MAX_BODY_BYTES) {
        chunks.length = 0;
        reject(tooLarge());
      } else if (size > DRAIN_LIMIT_BYTES) {
        ctx.req.destroy();
      }
    });
    let ended = false;
    ctx.req.on('end', () => { ended = true; resolve(Buffer.concat(chunks)); });
    ctx.req.on('error', reject);
    ctx.req.on('close', () => { if (!ended) reject(new DomainError('body_incomplete', 'the request body ended early', { path: [] })); });
  });
}

/**
 * Reads a JSON body into ctx.state.body (undefined when there is none), of at most `limitOf(ctx)`
 * bytes: MAX_BODY_BYTES unless the operation takes more (a batch, decisions.md).
 */
export function jsonBodyWithin(limitOf: (ctx: Context) => number | undefined) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    // Bodies are read as sent: an encoded one (gzip) would be read as if it were not.
    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') {
      throw new DomainError('unsupported_content_type', `a body with Content-Encoding ${encoding.slice(0, 40)} is not taken: send it unencoded`, { path: [] });
    }
    if (UPLOAD_TYPES.includes(ctx.request.type)) {
      const bytes = await readRaw(ctx, MAX_UPLOAD_BYTES);
      if (bytes.length > 0) ctx.state.upload = { contentType: ctx.request.type, bytes };
      return next();
    }
    await readJson(ctx, limitOf(ctx) ?? MAX_BODY_BYTES);
    return next();
  };
}

/** Reads a JSON body of at most MAX_BODY_BYTES into ctx.state.body (undefined when there is none). */
export const jsonBody = jsonBodyWithin(() => undefined);

async function readJson(ctx: Context, limit: number): Promise<void> {
  const raw = await readRaw(ctx, limit);
  if (raw.length > 0) {
    // Also a body without a type: a browser sends one from another site's page without asking first.
    const type = ctx.request.type;
    if (type !== 'application/json' && !type.endsWith('+json')) {
      throw new DomainError('unsupported_content_type', 'the body must be application/json', { path: [] });
    }
    let text: string;
    try {
      text = decoder.decode(raw);
    } catch {
      throw new DomainError('invalid_utf8', 'the body is not valid UTF-8', { path: [] });
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    ctx.state.body = text.trim() === '' ? undefined : parseStrictJson(text);
  }
}
