import { readConfig } from './platform/config.ts';
import { StartupError } from './platform/startup-error.ts';
import { startService, type RunningService } from './service.ts';

const log = (line: string) => console.log(line);

// Handlers first: a Ctrl-C during start-up waits until the service can stop in order. One Ctrl-C
// may arrive twice (from the terminal and forwarded by npm): the repeats are ignored.
let service: RunningService | undefined;
let stopSignal: NodeJS.Signals | undefined;
async function stop(signal: NodeJS.Signals): Promise<void> {
  console.log(`${signal}: stopping`);
  try {
    await service!.stop();
  } catch (error) {
    console.error(`stopping failed: ${(error as Error).message}`);
    process.exit(1);
  }
  console.log('stopped');
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopSignal) return;
    stopSignal = signal;
    if (service) void stop(signal);
  });
}

try {
  const config = readConfig();
  service = await startService(config, log);
  console.log(`Service listening on ${service.url}`);
  console.log(`  REST:     ${service.url}/main/v1   (OpenAPI: ${service.url}/main/v1/openapi.json)`);
  console.log(`  Console:  ${service.url}/console/   (sign in with an API credential)`);
  console.log(`  GraphiQL: ${service.url}/graphql`);
  console.log(`  Version:  ${service.url}/main/version`);
  console.log(`  Database: ${service.database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`);
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (stopSignal) await stop(stopSignal);
