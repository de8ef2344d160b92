// ava's configuration (test/run.ts runs it: `npm test`). A file rather than package.json's "ava"
// for the order of the test files, which only a config file can give (a comparator).

import { globSync } from 'node:fs';

/**
 * The test files that take longest, longest first (seconds of wall time each in a full run on two
 * cores, 2026-11): they start early, so that the run does not end with one of them still going
 * while the other lanes are idle; each between two other files, so that the first four lanes do not
 * run four of them side by side, each a quarter of the machine (the property test then ran into its
 * timeout). The other files follow in path order.
 */
const LONGEST_FIRST = [
  'test/rest/billing/billing-documents.test.ts',
  'test/rest/billing/billing-property.test.ts',
  'test/rest/fuzz.test.ts',
  'test/rest/rails/isolation-matrix.test.ts',
  'test/scale/two-processes.test.ts',
  'test/console/console.test.ts',
  'test/src/platform/database-bound.test.ts',
  'test/rest/billing/invoice-content.test.ts',
  'test/rest/cpo/cpo-month.test.ts',
  'test/rest/billing/billing-month.test.ts',
  'test/rest/billing/review-set-operation.test.ts',
  'test/rest/end-users/app-api.test.ts',
  'test/readme.test.ts',
  'test/rest/rails/auth-hardening.test.ts',
  'test/src/setup/setup-apply.test.ts',
];

const others = globSync('test/**/*.test.ts').filter((file) => !LONGEST_FIRST.includes(file)).sort();
const order = new Map([
  ...LONGEST_FIRST.flatMap((file, i) => [file, ...(i < others.length ? [others[i]] : [])]),
  ...others.slice(LONGEST_FIRST.length),
].map((file, i) => [file, i]));

const rank = (file) => {
  const found = [...order].find(([path]) => file.endsWith(`/${path}`));
  return found ? found[1] : order.size;
};

export default {
  files: ['test/**/*.test.ts'],
  extensions: ['ts'],
  timeout: '60s',
  workerThreads: false,
  require: ['./test/helpers/log.ts'],
  // In the test process and in the worker thread its app starts (test/helpers/no-source-maps.ts,
  // test/helpers/resolve-cache.ts).
  nodeArguments: ['--import=./test/helpers/no-source-maps.ts', '--import=./test/helpers/resolve-cache.ts'],
  sortTestFiles: (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
};
