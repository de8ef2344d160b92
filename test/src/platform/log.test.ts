// The process log (src/platform/log.ts, decisions: "Running"): LOG_LEVEL is a pino level or the
// start stops; readable lines for a terminal; and the suite's watch: a registered secret in any log
// line is found (test/helpers/log.ts fails the file it happens in: exit code 1).
import test from 'ava';
import { logger, logLevel } from '../../../src/platform/log.ts';
import { prettyLine } from '../../../src/platform/log-pretty.ts';
import { StartupError } from '../../../src/platform/startup-error.ts';
import { logLines } from '../../helpers/log.ts';
import { registerSecret, takeLeaks } from '../../helpers/secret-scan.ts';

test('LOG_LEVEL: a pino level, info when unset or empty; anything else is a start-up error naming the levels', (t) => {
  t.is(logLevel({}), 'info');
  t.is(logLevel({ LOG_LEVEL: '' }), 'info');
  t.is(logLevel({ LOG_LEVEL: 'debug' }), 'debug');
  t.is(logLevel({ LOG_LEVEL: 'silent' }), 'silent');
  const error = t.throws(() => logLevel({ LOG_LEVEL: 'verbose' }), { instanceOf: StartupError });
  t.is(error?.message, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent: verbose');
});

test('a terminal reads a line as time, level, message and the other fields; a stack below its line', (t) => {
  const line = JSON.stringify({
    level: 'info', time: '2026-11-26T10:41:07.125Z', pid: 7, request_id: 'r-1', method: 'GET', route: '/main/v1/customer/{id}', status: 200,
    duration_ms: 3.5, public_id: null, msg: 'request',
  });
  t.is(prettyLine(line), '10:41:07.125 INFO  request  request_id=r-1 method=GET route=/main/v1/customer/{id} status=200 duration_ms=3.5');
  const failed = prettyLine(JSON.stringify({ level: 'error', time: '2026-11-26T10:41:08.000Z', msg: 'internal error', err: { stack: 'TypeError: x\n    at f (a.ts:1:1)' } }));
  t.is(failed, '10:41:08.000 ERROR internal error\n    TypeError: x\n        at f (a.ts:1:1)');
  t.is(prettyLine('not json'), 'not json');
  t.regex(prettyLine(line, true), /\u001b\[32mINFO /, 'colours in a colour terminal');
});

test('a registered secret in a log line is found: the suite fails the file it is logged in', (t) => {
  const secret = `log-scan-secret-${process.pid}`;
  registerSecret(secret);
  logger().warn({ public_id: 'p' }, `a careless line holding ${secret}`);
  t.true(logLines().some((line) => String(line.msg).includes(secret)));
  // Taken here, so that this file's own check (test/helpers/log.ts) passes.
  t.deepEqual(takeLeaks(), ['log: the secret log…']);
});
