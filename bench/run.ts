// `npm run bench -- [name]`: each benchmark prints its figure, a baseline measured in the same
// run on the same database, and their ratio.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { migrate, openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue } from '../src/worker/worker.ts';
import { authFloodBenchmark } from './auth-flood.ts';
import { billingBenchmark } from './billing.ts';
import { eventsBenchmark } from './events.ts';
import { exportBenchmark } from './export.ts';
import { finalizeBenchmark } from './finalize.ts';
import { customerUpsertBenchmark } from './customer-upsert.ts';
import { readsBenchmark } from './reads.ts';
import { sessionIngestBenchmark } from './session-ingest.ts';
import { sessionBatchBenchmark } from './session-batch.ts';
import { ocpiTariffBenchmark } from './ocpi-tariff.ts';
import { graphqlBoxesBenchmark } from './graphql-boxes.ts';

export interface BenchmarkResult { name: string; unit: string; figure: number; baseline: number; baselineLabel: string }

const benchmarks: Record<string, (url: string) => Promise<BenchmarkResult>> = {
  customers: customerUpsertBenchmark,
  ingest: sessionIngestBenchmark,
  batch: sessionBatchBenchmark,
  'auth-flood': authFloodBenchmark,
  reads: readsBenchmark,
  billing: billingBenchmark,
  events: eventsBenchmark,
  finalize: finalizeBenchmark,
  'ocpi-tariff': ocpiTariffBenchmark,
  'graphql-boxes': graphqlBoxesBenchmark,
  export: exportBenchmark,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(benchmarks);
for (const name of names) {
  if (!benchmarks[name]) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(2);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
chmodSync(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir, database: 'bench' });
try {
  const orm = await openOrm(ormConfig(pg.url));
  await migrate(orm);
  await orm.close();
  await migrateJobQueue(pg.url);
  for (const name of names) {
    const result = await benchmarks[name](pg.url);
    console.log(`${result.name}: ${result.figure.toFixed(0)} ${result.unit}`);
    console.log(`  baseline (${result.baselineLabel}): ${result.baseline.toFixed(0)} ${result.unit}`);
    console.log(`  ratio: ${(result.figure / result.baseline).toFixed(3)}`);
  }
} finally {
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
