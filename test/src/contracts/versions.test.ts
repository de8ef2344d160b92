// The version in force at a moment (src/contracts/versions.ts): the latest valid_from not after it.
import test from 'ava';
import { versionAt, versionsAtByKey } from '../../../src/contracts/versions.ts';

const at = (iso: string) => new Date(iso);
const JAN = { id: 'jan', validFrom: at('2026-01-01T00:00:00Z') };
const MAR = { id: 'mar', validFrom: at('2026-03-01T00:00:00Z') };
const FEB = { id: 'feb', validFrom: at('2026-02-01T00:00:00Z') };

test('the latest valid_from not after the moment, in any order; none before the first', (t) => {
  for (const versions of [[JAN, FEB, MAR], [MAR, FEB, JAN], [FEB, MAR, JAN]]) {
    t.is(versionAt(versions, at('2025-12-31T23:59:59.999Z')), undefined);
    t.is(versionAt(versions, JAN.validFrom)?.id, 'jan', 'valid_from is inclusive');
    t.is(versionAt(versions, at('2026-02-28T23:59:59.999Z'))?.id, 'feb', 'until the next one starts');
    t.is(versionAt(versions, MAR.validFrom)?.id, 'mar');
  }
  t.is(versionAt([], MAR.validFrom), undefined);
});

test('per key, in the order the keys first have a version in force', (t) => {
  const inputs = [
    { key: 'time', validFrom: MAR.validFrom }, { key: 'energy', validFrom: FEB.validFrom },
    { key: 'time', validFrom: JAN.validFrom }, { key: 'energy', validFrom: JAN.validFrom },
  ];
  const found = versionsAtByKey(inputs, (input) => input.key, FEB.validFrom);
  t.deepEqual([...found.keys()], ['energy', 'time']);
  t.is(found.get('energy')?.validFrom, FEB.validFrom);
  t.is(found.get('time')?.validFrom, JAN.validFrom);
});
