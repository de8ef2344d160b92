// The fields a resubmission compares are exactly the fields the session endpoints accept: a field
// added to a body schema without a comparison rule would make a changed session look identical.
import test from 'ava';
import { chargeSessionBody, cpoChargeSessionBody } from '../../../rest/sessions/session-body.ts';
import { SESSION_FIELDS, type Shape } from '../../../src/sessions/session-content.ts';

/** Member paths of a yup schema, objects and arrays followed down. */
function schemaPaths(schema: any, path = '$'): string[] {
  if (schema.type === 'array') return schemaPaths(schema.innerType, `${path}[]`);
  if (schema.type === 'object' && Object.keys(schema.fields).length > 0) {
    return Object.entries(schema.fields).flatMap(([key, member]) => [`${path}.${key}`, ...schemaPaths(member, `${path}.${key}`)]);
  }
  return [];
}

function shapePaths(shape: Shape, path = '$'): string[] {
  if (Array.isArray(shape)) return shapePaths(shape[0], `${path}[]`);
  if (typeof shape === 'object') return Object.entries(shape).flatMap(([key, member]) => [`${path}.${key}`, ...shapePaths(member, `${path}.${key}`)]);
  return [];
}

test('every field of POST /charge-session and POST /cpo-charge-session has a comparison rule, and no other', (t) => {
  t.deepEqual(shapePaths(SESSION_FIELDS.charge_session).sort(), schemaPaths(chargeSessionBody).sort());
  t.deepEqual(shapePaths(SESSION_FIELDS.cpo_charge_session).sort(), schemaPaths(cpoChargeSessionBody).sort());
});
