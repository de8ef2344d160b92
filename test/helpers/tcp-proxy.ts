// A TCP proxy in front of a database that can freeze: while frozen it accepts connections and
// keeps every socket open but forwards nothing, as a PostgreSQL whose processes are stopped
// (SIGSTOP) would behave. Unfrozen, what it held back flows on. Stopped, it drops and refuses
// every connection, as a database that is down.
import { createServer, connect, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  freeze(): void;
  unfreeze(): void;
  /** Drops every connection at once (a network cut, a server gone). */
  cutAll(): void;
  /** A stopped database: every connection dropped and new ones refused (closed at once) until `start`. */
  stop(): void;
  start(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  let stopped = false;
  const flushes = new Set<() => void>();
  const sockets = new Set<Socket>();

  /** Forwards `from` to `to`, holding chunks back while frozen. */
  function forward(from: Socket, to: Socket): void {
    const held: Buffer[] = [];
    const flush = () => {
      while (held.length && !to.destroyed) to.write(held.shift()!);
    };
    flushes.add(flush);
    from.on('data', (chunk: Buffer) => {
      if (frozen || held.length) held.push(chunk);
      else to.write(chunk);
    });
    from.on('close', () => {
      flushes.delete(flush);
      if (frozen) to.destroy();
      else { flush(); to.end(); }
    });
    from.on('error', () => to.destroy());
  }

  const server = createServer((client) => {
    if (stopped) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    rewrite: (url) => {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    freeze: () => { frozen = true; },
    unfreeze: () => {
      frozen = false;
      for (const flush of flushes) flush();
    },
    cutAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    stop: () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
    start: () => { stopped = false; },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
