// A built single-page application under a path prefix (the console at /console/): its files with
// their content types, hashed assets cached for a year, index.html never cached, and index.html
// for any other path below the prefix so that the client's router takes it.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context, Next } from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Only what the page itself loads: its scripts, styles and images; no framing. */
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

async function fileAt(path: string): Promise<Buffer | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    return await readFile(path);
  } catch {
    return null;
  }
}

export interface StaticSiteOptions {
  /** The path prefix without a trailing slash: `/console`. */
  prefix: string;
  /** The built files (index.html and assets/). */
  dir: string;
  /** Folder (below dir) of content-hashed files: cached for good. */
  immutableDir?: string;
  /** What a request gets while nothing is built. */
  notBuilt: string;
}

export function staticSite(options: StaticSiteOptions) {
  const { prefix, dir, immutableDir = 'assets' } = options;
  const root = normalize(dir + sep);
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    if (ctx.path === prefix) {
      ctx.redirect(`${prefix}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return;
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) ctx.set(name, value);
    let relativePath: string;
    try {
      relativePath = decodeURIComponent(ctx.path.slice(prefix.length + 1));
    } catch {
      relativePath = '';
    }
    const target = normalize(join(root, relativePath));
    const inside = target.startsWith(root) && !relativePath.includes('\0');
    // Where the file is, not how it was asked for: `assets/..%2findex.html` is the page, not an asset cached for good.
    const isAsset = target.startsWith(join(root, immutableDir) + sep);
    const file = inside && relativePath !== '' && !relativePath.startsWith('.') ? await fileAt(target) : null;
    if (file) {
      ctx.type = TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream';
      ctx.set('Cache-Control', isAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.body = file;
      return;
    }
    // A missing hashed asset or file is a 404 (an old page asking for a file of another build), never
    // the page; a path like /console/customers/ext_ref.CUST-1 is the client's route.
    const fileType = extname(relativePath).toLowerCase();
    if (isAsset || (fileType in TYPES && fileType !== '.html')) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'not found';
      return;
    }
    const index = await fileAt(join(root, 'index.html'));
    ctx.set('Cache-Control', 'no-cache');
    if (!index) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = options.notBuilt;
      return;
    }
    ctx.type = TYPES['.html'];
    ctx.body = index;
  };
}
