import type { Context, Next } from 'koa';
import { DomainError } from '../../src/platform/errors.ts';
import { parseStrictJson } from './strict-json.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

async function readRaw(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_BODY_BYTES) {
    throw new DomainError('body_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`, { param: '$' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      ctx.req.destroy();
      throw new DomainError('body_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`, { param: '$' });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body into ctx.state.body (undefined when there is none). */
export async function jsonBody(ctx: Context, next: Next): Promise<void> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
  const raw = await readRaw(ctx);
  if (raw.length > 0) {
    const type = ctx.request.type;
    if (type && type !== 'application/json' && !type.endsWith('+json')) {
      throw new DomainError('unsupported_content_type', 'the body must be application/json', { param: '$' });
    }
    let text: string;
    try {
      text = decoder.decode(raw);
    } catch {
      throw new DomainError('invalid_utf8', 'the body is not valid UTF-8', { param: '$' });
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    ctx.state.body = text.trim() === '' ? undefined : parseStrictJson(text);
  }
  return next();
}
