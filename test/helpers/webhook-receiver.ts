// A real HTTP receiver for webhook tests: records every delivery (body, headers, when) and answers
// per path: /ok 204, /fail/<n> 500 for its first n requests then 204, /slow 204 after 300 ms.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery { path: string; body: Record<string, any>; raw: string; headers: IncomingMessage['headers']; status: number }

export interface Receiver { url: string; deliveries: Delivery[]; close(): Promise<void>; on(path: string): Delivery[] }

export async function startReceiver(port = 0): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => { raw += chunk; });
    request.on('end', () => {
      const path = request.url ?? '/';
      const count = (seen.get(path) ?? 0) + 1;
      seen.set(path, count);
      const failing = /^\/fail\/(\d+)/.exec(path);
      const status = failing && count <= Number(failing[1]) ? 500 : 204;
      const answer = () => {
        deliveries.push({ path, body: JSON.parse(raw), raw, headers: request.headers, status });
        response.writeHead(status).end();
      };
      if (path.startsWith('/slow')) setTimeout(answer, 300); else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    on: (path) => deliveries.filter((d) => d.path === path && d.status < 300),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Polls until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
