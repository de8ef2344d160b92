// Preloaded into every test process and into its worker thread (ava.config.js nodeArguments): ava
// starts its test processes with --enable-source-maps, which makes Node look for a source map in every
// module it loads (twice per test file: the process and its worker thread) and map every stack trace.
// The TypeScript here runs type-stripped, its positions unchanged: no map is needed to read a stack.
import module from 'node:module';

module.setSourceMapsSupport(false);
