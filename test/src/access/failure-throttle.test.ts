import test from 'ava';
import { FailureThrottle } from '../../../src/access/failure-throttle.ts';

test('a key waits once it reaches the limit, until its window ends', (t) => {
  const throttle = new FailureThrottle({ limit: 3, windowMs: 60_000, maxEntries: 100 });
  for (let i = 0; i < 2; i++) throttle.recordFailure('a', 1_000);
  t.is(throttle.waitSeconds('a', 1_000), 0);
  throttle.recordFailure('a', 2_000);
  t.is(throttle.waitSeconds('a', 2_000), 59);
  t.is(throttle.waitSeconds('b', 2_000), 0);
  t.is(throttle.waitSeconds('a', 60_500), 1);
  t.is(throttle.waitSeconds('a', 61_000), 0);
  throttle.recordFailure('a', 61_000);
  t.is(throttle.waitSeconds('a', 61_000), 0, 'a new window');
});

test('memory stays bounded: expired windows go, and past the cap the oldest one', (t) => {
  const throttle = new FailureThrottle({ limit: 3, windowMs: 60_000, maxEntries: 100 });
  for (let i = 0; i < 3; i++) throttle.recordFailure('attacked', 0);
  for (let i = 0; i < 50_000; i++) throttle.recordFailure(`random-${i}`, 1 + Math.floor(i / 1000));
  t.is(throttle.size, 100);
  t.is(throttle.waitSeconds('attacked', 100), 0, 'evicted, oldest first');
  t.true(throttle.waitSeconds('random-49999', 100) === 0 && throttle.size === 100);
  throttle.recordFailure('late', 120_000);
  t.is(throttle.size, 1, 'expired windows are dropped');
});
