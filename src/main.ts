import { readConfig } from './platform/config.ts';
import { startService } from './service.ts';

const config = readConfig();
const log = (line: string) => console.log(line);
const service = await startService(config, log);
console.log(`Service listening on ${service.url}`);
console.log(`  REST:     ${service.url}/main/v1   (OpenAPI: ${service.url}/main/v1/openapi.json)`);
console.log(`  GraphiQL: ${service.url}/graphql`);
console.log(`  Version:  ${service.url}/main/version`);
console.log(`  Database: ${service.database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    await service.stop().catch((error) => console.error(error));
    process.exit(0);
  });
}
