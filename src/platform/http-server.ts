import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type Koa from 'koa';
import { StartupError } from './startup-error.ts';

const GRACE_MS = 10_000;

function startupErrorFor(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const messages: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is in use: stop what listens there or choose another port with PORT`,
    EACCES: `no permission to listen on port ${port}: choose a port above 1023 with PORT`,
    EADDRNOTAVAIL: `HOST=${host} is not an address of this machine: choose another with HOST`,
    ENOTFOUND: `HOST=${host} is not a known host name: choose another with HOST`,
    EAI_AGAIN: `HOST=${host} could not be resolved: choose another with HOST`,
  };
  const message = error.code ? messages[error.code] : undefined;
  return message ? new StartupError(message) : error;
}

function bind(server: Server | NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(startupErrorFor(error, port, host));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/** Fails early (before the database starts) when host:port cannot be bound; `listen` still handles a race. */
export async function checkListenable(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await bind(probe, port, host);
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on host:port; a port in use or an address not of this machine is a StartupError naming the variable. */
/**
 * How long a client may take to send its headers, and its whole request: Node's defaults (60 s and
 * 300 s) let a slow client hold a connection for five minutes. The largest body (16 MiB) takes under
 * a minute at 3 Mbit/s.
 */
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;

export async function listen(app: Koa, port: number, host: string): Promise<Server> {
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, app.callback());
  await bind(server, port, host);
  return server;
}

/**
 * Stops accepting, lets the requests in flight finish (closing keep-alive connections as they
 * turn idle) and cuts whatever is left after a grace period.
 */
export function closeGracefully(server: Server, graceMs = GRACE_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
