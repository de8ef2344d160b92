// Loads the modules that every test process loads (the test app with its worker, the worker thread's
// item sources, the factories, the GraphQL schema), so that Node writes their compiled code to its
// compile cache once. test/run.ts runs it when the cache is missing (a fresh clone): without it the
// first test files, side by side, each compiled every module and wrote it to the cache.
await import('./app.ts');
await import('./factories.ts');
await import('../../src/item-sources.ts');
await import('../../schema/index.ts');
