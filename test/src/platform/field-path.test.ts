// The place of a failure is data (FieldPath); one reading of yup's paths, one label for messages,
// and nowhere in src/ a transport's notation for it (the Done-when of issue 10).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { fieldLabel, yupFieldPath } from '../../../src/platform/field-path.ts';

test('yup paths become field paths: members, indexes, quoted members (yup\'s and JSON\'s quoting)', (t) => {
  t.deepEqual(yupFieldPath(undefined), []);
  t.deepEqual(yupFieldPath(''), []);
  t.deepEqual(yupFieldPath('name'), ['name']);
  t.deepEqual(yupFieldPath('charge_periods[0].dimensions[12].type'), ['charge_periods', 0, 'dimensions', 12, 'type']);
  t.deepEqual(yupFieldPath('[3].uid'), [3, 'uid']);
  t.deepEqual(yupFieldPath('items[0][1]'), ['items', 0, 1]);
  t.deepEqual(yupFieldPath('custom_fields["a.b"]'), ['custom_fields', 'a.b']);
  t.deepEqual(yupFieldPath('custom_fields["say \\"hi\\"]"].x'), ['custom_fields', 'say "hi"]', 'x']);
  t.deepEqual(yupFieldPath('custom_fields["a b"]'), ['custom_fields', 'a b']);
});

test('messages name a field as yup does', (t) => {
  t.is(fieldLabel(['rate_plans', 0, 'versions', 1, 'valid_from']), 'rate_plans[0].versions[1].valid_from');
  t.is(fieldLabel(['custom_fields', 'a b']), 'custom_fields["a b"]');
  t.is(fieldLabel([]), '');
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('src/ holds no JSONPath: places are field paths, the transports write them', (t) => {
  const root = new URL('../../../src', import.meta.url).pathname;
  const found = sources(root).flatMap((file) => readFileSync(file, 'utf8').split('\n')
    .map((line, i) => ({ where: `${file.slice(root.length + 1)}:${i + 1}`, line }))
    .filter(({ line }) => /['"`]\$\.|param: /.test(line)));
  t.deepEqual(found.map(({ where, line }) => `${where}: ${line.trim()}`), []);
});
