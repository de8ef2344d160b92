// GraphiQL without a CDN: the page references only assets the service serves itself from the
// installed @graphql-yoga/graphiql, so it works offline. Only the files named here are served
// (looked up by exact name, never a path taken from the request), without credentials.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'koa';
import { DomainError } from '../src/platform/errors.ts';

const packageJson = createRequire(import.meta.url).resolve('@graphql-yoga/graphiql/package.json');
const DIST = join(dirname(packageJson), 'dist');
const VERSION = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;

const JS = 'text/javascript; charset=utf-8';
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#e10098"/>'
  + '<path d="M18 3 7 18h7l-2 11 11-15h-7z" fill="#fff"/></svg>';

interface Asset { type: string; file?: string; content?: string | Buffer }

// Monaco asks for its workers by label (editorWorkerService, json, graphql).
const ASSETS = new Map<string, Asset>([
  ['graphiql.css', { type: 'text/css; charset=utf-8', file: 'graphiql.css' }],
  ['yoga-graphiql.js', { type: JS, file: 'yoga-graphiql.umd.js' }],
  ['editor.worker.js', { type: JS, file: 'monacoeditorwork/editor.worker.bundle.js' }],
  ['json.worker.js', { type: JS, file: 'monacoeditorwork/json.worker.bundle.js' }],
  ['graphql.worker.js', { type: JS, file: 'monacoeditorwork/graphql.worker..bundle.js' }],
  ['favicon.svg', { type: 'image/svg+xml', content: FAVICON }],
]);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function graphiql(graphqlPath: string) {
  /** Versioned, so the assets may be cached for good. */
  const prefix = `${graphqlPath}/assets/${VERSION}`;
  const url = (name: string) => `${prefix}/${name}`;

  function page(options: { title?: string } & Record<string, unknown>): string {
    const title = escapeHtml(options.title ?? 'GraphiQL');
    const workers = { editorWorkerService: url('editor.worker.js'), json: url('json.worker.js'), graphql: url('graphql.worker.js') };
    const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" type="image/svg+xml" href="${url('favicon.svg')}">
<link rel="stylesheet" href="${url('graphiql.css')}">
</head><body id="body" class="no-focus-outline"><noscript>You need to enable JavaScript to run this app.</noscript><div id="root">Loading ${title}...</div>
<script>const workerUrls = ${json(workers)};
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workerUrls[label] ?? workerUrls.editorWorkerService };</script>
<script src="${url('yoga-graphiql.js')}"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(root, ${json(options)});</script>
</body></html>`;
  }

  /** Answers a request under `${graphqlPath}/assets/`: an asset, else 404 (405 for other methods). */
  function serveAsset(ctx: Context): void {
    const asset = ctx.path.startsWith(`${prefix}/`) ? ASSETS.get(ctx.path.slice(prefix.length + 1)) : undefined;
    if (!asset) throw new DomainError('route_not_found', `no such path: ${ctx.path}`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new DomainError('method_not_allowed', `${ctx.method} is not allowed here; use GET, HEAD`);
    }
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.type;
    // Read once, on first use (about 8 MB in all; a browser caches them for good).
    asset.content ??= readFileSync(join(DIST, asset.file!));
    ctx.body = asset.content;
  }

  return { assetsPath: `${graphqlPath}/assets/`, page, serveAsset };
}
