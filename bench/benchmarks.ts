// The list of benchmarks: one line each. `load` imports the benchmark only in the process that
// runs it (bench/run-one.ts), so the parent (bench/run.ts) loads none of the service. `growth`:
// measured again with 100,000 and 1,000,000 stored sessions beside it (bench/run.ts, growth).

export interface BenchmarkResult {
  name: string;
  unit: string;
  figure: number;
  baseline: number;
  baselineLabel: string;
  /** Further figures the growth table shows, each with its baseline when it has one (e.g. each list of reads). */
  parts?: BenchmarkPart[];
}

export interface BenchmarkPart { name: string; unit: string; figure: number; baseline?: number }

export type Benchmark = (databaseUrl: string) => Promise<BenchmarkResult>;

export interface BenchmarkEntry { load: () => Promise<Benchmark>; growth?: boolean }

export const benchmarks: Record<string, BenchmarkEntry> = {
  customers: { load: async () => (await import('./customer-upsert.ts')).customerUpsertBenchmark },
  ingest: { load: async () => (await import('./session-ingest.ts')).sessionIngestBenchmark, growth: true },
  batch: { load: async () => (await import('./session-batch.ts')).sessionBatchBenchmark },
  'auth-flood': { load: async () => (await import('./auth-flood.ts')).authFloodBenchmark },
  reads: { load: async () => (await import('./reads.ts')).readsBenchmark, growth: true },
  billing: { load: async () => (await import('./billing.ts')).billingBenchmark, growth: true },
  events: { load: async () => (await import('./events.ts')).eventsBenchmark },
  finalize: { load: async () => (await import('./finalize.ts')).finalizeBenchmark },
  'ocpi-tariff': { load: async () => (await import('./ocpi-tariff.ts')).ocpiTariffBenchmark },
  'graphql-boxes': { load: async () => (await import('./graphql-boxes.ts')).graphqlBoxesBenchmark },
  export: { load: async () => (await import('./export.ts')).exportBenchmark, growth: true },
};

/** Figures in ms or s are times (lower is better); any other unit is a rate or a ratio (higher is better). */
export const isTime = (unit: string): boolean => unit === 'ms' || unit === 's';
