// A pool that is asked to end while one of its connections is still being taken (an ORM closed
// while a statement waits for a new connection: a job kick a request left behind, at a shutdown).
// Kysely's pg driver forgets its pool when it is destroyed; a connection that arrives afterwards made
// it throw before it had the connection, which then stayed checked out, and `pool.end()` waited
// for it forever (a test process that never exited). Here such a connection goes back to the pool
// at once and its taker fails; the end completes.
import type pg from 'pg';

export class PoolClosing extends Error {
  constructor() {
    super('the database pool is closing');
    this.name = 'PoolClosing';
  }
}

export interface ClosablePool {
  connect(callback?: unknown): Promise<pg.PoolClient> | void;
  end(callback?: unknown): Promise<void> | void;
}

/** Connections that arrive once the pool was asked to end are given back, and their takers fail. */
export function refuseConnectionsAfterEnd(pool: ClosablePool): void {
  const connect = pool.connect.bind(pool);
  const end = pool.end.bind(pool);
  let ending = false;
  pool.end = ((callback?: unknown) => {
    ending = true;
    return end(callback);
  }) as ClosablePool['end'];
  pool.connect = ((callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      if (!ending) return client;
      client.release();
      throw new PoolClosing();
    });
  }) as ClosablePool['connect'];
}
