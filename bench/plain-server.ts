// The plain handler of bench/reads.ts (bench/plain-lists.ts) in a process of its own, so that the
// reads benchmark's peak RSS is the service's (the app), as every benchmark's is, not the app's and
// its baseline server's together: `node bench/plain-server.ts <databaseUrl> <poolSize>` prints the
// port it listens on and stops when its stdin closes.
import type { AddressInfo } from 'node:net';
import { plainServer } from './plain-lists.ts';

const [databaseUrl, poolSize] = process.argv.slice(2);
const { server, pool } = plainServer(databaseUrl, Number(poolSize));
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  void pool.end().finally(() => process.exit(0));
});
process.stdin.resume();
