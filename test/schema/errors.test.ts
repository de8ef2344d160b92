// GraphQL names the place of a service's failure below the field's input argument, in its own
// member names; inside a JSON member the names stay as the client sent them.
import test from 'ava';
import { DomainError } from '../../src/platform/errors.ts';
import { argumentPath, errorExtensions, inArgument } from '../../schema/errors.ts';

test('a service place becomes the path below the input argument, camel case', (t) => {
  t.deepEqual(argumentPath(['admin_id'], { name: 'input' }), ['input', 'adminId']);
  t.deepEqual(argumentPath(['recurring_costs', 1, 'amount_excl_vat'], { name: 'input' }), ['input', 'recurringCosts', 1, 'amountExclVat']);
  t.deepEqual(argumentPath([], { name: 'input' }), ['input']);
  t.deepEqual(argumentPath(['a_1_b', 'x__y', 'tail_'], { name: 'input' }), ['input', 'a1B', 'x_Y', 'tail_']);
  const definition = { name: 'input', jsonMembers: ['definition'] };
  t.deepEqual(argumentPath(['definition', 'rates', 'energy', 'step_size'], definition), ['input', 'definition', 'rates', 'energy', 'step_size']);
  t.deepEqual(argumentPath(['valid_from'], definition), ['input', 'validFrom']);
});

test('extensions carry the code and the rendered places, details included', (t) => {
  const error = DomainError.of('validation_failed', [
    { path: ['admin_ids', 0], message: 'first' },
    { path: ['name'], message: 'second' },
    { queryParam: 'page_size', message: 'third' },
  ]);
  t.deepEqual(errorExtensions(inArgument(error, 'input')), {
    code: 'validation_failed',
    param: '$.input.adminIds[0]',
    details: [
      { param: '$.input.adminIds[0]', message: 'first' },
      { param: '$.input.name', message: 'second' },
      { query_param: 'page_size', message: 'third' },
    ],
  });
  t.deepEqual(errorExtensions(new DomainError('not_found', 'x', { path: ['after'] })), { code: 'not_found', param: '$.after' });
  t.deepEqual(errorExtensions(new DomainError('forbidden', 'x')), { code: 'forbidden' });
});
