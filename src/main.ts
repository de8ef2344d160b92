import { readConfig } from './platform/config.ts';
import { configureLog, logger, logLevel } from './platform/log.ts';
import { StartupError } from './platform/startup-error.ts';
import { startService, type RunningService } from './service.ts';

// Handlers first: a Ctrl-C during start-up waits until the service can stop in order. One Ctrl-C
// may arrive twice (from the terminal and forwarded by npm): the repeats are ignored.
let service: RunningService | undefined;
let stopSignal: NodeJS.Signals | undefined;
async function stop(signal: NodeJS.Signals): Promise<void> {
  logger().info(`${signal}: stopping`);
  try {
    await service!.stop();
  } catch (error) {
    logger().error({ err: error }, `stopping failed: ${(error as Error).message}`);
    process.exit(1);
  }
  logger().info('stopped');
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
  // JSON lines (one object each) for whatever collects stdout; readable lines in a terminal.
  configureLog({ level: logLevel(), pretty: process.stdout.isTTY === true });
  const config = readConfig();
  service = await startService(config);
  const log = logger();
  log.info({ url: service.url }, `Service listening on ${service.url}`);
  log.info(`  REST:     ${service.url}/main/v1   (OpenAPI: ${service.url}/main/v1/openapi.json)`);
  log.info(`  Console:  ${service.url}/console/   (sign in with an API credential)`);
  log.info(`  GraphiQL: ${service.url}/graphql`);
  log.info(`  Health:   ${service.url}/main/health/ready   Metrics: ${service.url}/main/metrics`);
  log.info(`  Version:  ${service.url}/main/version`);
  log.info(`  Database: ${service.database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`);
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  // One line naming what to fix (decisions: "Running"), on stderr as before any log existed.
  console.error(error.message);
  process.exit(1);
}
if (stopSignal) await stop(stopSignal);
