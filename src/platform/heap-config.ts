// The V8 heap configuration of the service's processes (issue 25 "Memory"; decisions: "Running",
// heap). Node 24 grows a heap's young generation up to 64 MB per semi-space when the machine has
// memory (the default scales with the old-space limit, about 4 GB on a 16 GB machine): two
// semi-spaces of 64 MB in the main thread and two in the worker thread are up to 256 MB of resident
// memory that only holds garbage between scavenges. 16 MB per semi-space (V8's default before it
// scaled) keeps the scavenges short.
//
// The old space gets a limit of 1 GB per thread. V8 lets the old space grow by up to four times its
// live size before a full collection when its limit is 2 GB or more (the default is a quarter of the
// machine's memory), and by about 1.6 times at 1 GB: under ingestion load both threads' old spaces
// grew past 150 MB of mostly garbage, and the process past 600 MB. The largest live heaps measured
// (billing 1,000,000 sessions, finalizing a box of 40,000 sessions) stay well below 1 GB.
//
// The main thread gets the flag on its command line (package.json `start`, the Dockerfile's CMD,
// bench/run.ts for each benchmark's process; test/platform/heap-config.test.ts keeps them equal);
// the worker thread, an isolate of its own, gets the same young generation as its resourceLimits.

/** Megabytes per semi-space of the young generation (the young generation is three of them: two semi-spaces and its large objects). */
export const SEMI_SPACE_MB = 16;

/** Megabytes of old space per thread (the main thread's, and the worker thread's). */
export const OLD_SPACE_MB = 1024;

/** The flags every process of the service starts node with. */
export const SERVICE_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`, `--max-old-space-size=${OLD_SPACE_MB}`];

/** The worker thread's limits: the main thread's young generation and old space (also where the process was started without the flags). */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB, maxOldGenerationSizeMb: OLD_SPACE_MB } as const;
