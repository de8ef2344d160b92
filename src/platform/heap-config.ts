// The V8 heap configuration of the service's processes (issue 25 "Memory"; decisions: "Running",
// heap). Node 24 grows a heap's young generation up to 64 MB per semi-space when the machine has
// memory (the default scales with the old-space limit, about 4 GB on a 16 GB machine): two
// semi-spaces of 64 MB in the main thread and two in the worker thread are up to 256 MB of resident
// memory that only holds garbage between scavenges. 16 MB per semi-space (V8's default before it
// scaled) keeps the scavenges short and the process well under 512 MB; the old space keeps its
// default limit, so that no realistic workload runs out of heap.
//
// The main thread gets the flag on its command line (package.json `start`, the Dockerfile's CMD,
// bench/run.ts for each benchmark's process; test/platform/heap-config.test.ts keeps them equal);
// the worker thread, an isolate of its own, gets the same young generation as its resourceLimits.

/** Megabytes per semi-space of the young generation (the young generation is three of them: two semi-spaces and its large objects). */
export const SEMI_SPACE_MB = 16;

/** The flags every process of the service starts node with. */
export const SERVICE_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** The worker thread's limits: the same young generation as the main thread's (its old space: the default). */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB } as const;
