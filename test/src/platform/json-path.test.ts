// REST writes the place of a failure as JSONPath (decisions.md "Errors"), the way the JSON parser
// and the body guards always named members.
import test from 'ava';
import { yupFieldPath } from '../../../src/platform/field-path.ts';
import { jsonPath, memberPath } from '../../../src/platform/json-path.ts';

test('field paths are written as JSONPath below the body', (t) => {
  t.is(jsonPath([]), '$');
  t.is(jsonPath(['charge_periods', 0, 'dimensions', 1, 'type']), '$.charge_periods[0].dimensions[1].type');
  t.is(jsonPath([2]), '$[2]');
  t.is(jsonPath(['custom_fields', 'a b', 'c']), '$.custom_fields["a b"].c');
  t.is(jsonPath(['x', 'a"b']), '$.x["a\\"b"]');
  t.is(memberPath('$', 'toString'), '$.toString');
});

test('a yup path read as a field path is written as the JSONPath yup would name', (t) => {
  for (const [yup, expected] of [['', '$'], ['name', '$.name'], ['links[0].valid_from', '$.links[0].valid_from'], ['[1]', '$[1]'],
    ['custom_fields["a.b"]', '$.custom_fields["a.b"]']]) {
    t.is(jsonPath(yupFieldPath(yup)), expected, yup);
  }
});
