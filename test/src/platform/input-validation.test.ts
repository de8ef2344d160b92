// A strict check of an object body leaves out the absent members whose checks pass when absent
// (src/platform/input-validation.ts): the answer is the whole schema's, for valid and refused
// bodies alike, and a check that reads a sibling is run whether its member is there or not.
import test from 'ava';
import * as yup from 'yup';
import { DomainError } from '../../../src/platform/errors.ts';
import { validate } from '../../../src/platform/input-validation.ts';
import { chargeSessionBody, cpoChargeSessionBody } from '../../../rest/sessions/session-body.ts';

/** The answer of the whole schema, as validate gave it before it left members out. */
function whole(schema: yup.AnySchema, value: unknown): unknown {
  try {
    return schema.validateSync(value, { strict: true, abortEarly: true, stripUnknown: false });
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    return 'refused';
  }
}

function outcome(schema: yup.AnySchema, value: unknown): unknown {
  try {
    return validate(schema, value);
  } catch (error) {
    if (error instanceof DomainError) return 'refused';
    throw error;
  }
}

const body = () => ({
  session_id: 'S-1', cpo_id: 'NL*ABC', evco_id: 'NL-ABC-C12345678-X', start_date_time: '2026-03-02T10:00:00+01:00',
  end_date_time: '2026-03-02T11:00:00+01:00', total_energy_kwh: '10', time_zone: 'Europe/Amsterdam',
  address: { city: 'Utrecht', country: 'NL' }, evse_id: 'NL*ABC*E1',
});

const VARIANTS: [string, unknown][] = [
  ['power_type', 'DC'], ['power_type', 'warp'], ['connector_format', 'CABLE'], ['total_idle_seconds', -1], ['total_idle_seconds', 60],
  ['total_roaming_amount_excl_vat', '1.5'], ['total_roaming_amount_excl_vat', '1.5555555'], ['remark', 'x'.repeat(1001)],
  ['historical_tariff', { id: 'T' }], ['historical_tariff', 'T'], ['charge_periods', []], ['charge_periods', [{ dimensions: [] }]],
  ['cpo_id', 'XX*ABC'], ['evse_uid', 'E-1'], ['time_zone', 'Mars/Base'], ['address', { city: 'Utrecht' }], ['unknown', 1],
];

test('a valid or refused body gets the whole schema\'s answer, members present or absent', (t) => {
  let checked = 0;
  for (const schema of [chargeSessionBody, cpoChargeSessionBody]) {
    for (let mask = 0; mask < 512; mask++) {
      const value: Record<string, unknown> = body();
      Object.keys(value).forEach((key, i) => { if (mask & (1 << i)) delete value[key]; });
      const [name, member] = VARIANTS[mask % VARIANTS.length];
      if (mask & 1) value[name] = member;
      const expected = whole(schema, value);
      t.is(outcome(schema, value) === 'refused', expected === 'refused', JSON.stringify(value));
      if (expected !== 'refused') t.is(outcome(schema, value), value, 'the body itself');
      checked++;
    }
  }
  t.is(checked, 1024);
});

test('a refused body is reported as by the whole schema: every failed check, in its order', (t) => {
  const value = { ...body(), total_energy_kwh: 'ten', power_type: 'warp' } as Record<string, unknown>;
  delete value.time_zone;
  const error = t.throws(() => validate(chargeSessionBody, value), { instanceOf: DomainError })!;
  t.deepEqual(error.details!.map((d) => d.path), [['total_energy_kwh'], ['time_zone'], ['power_type']]);
});

test('a check that reads a sibling runs whether its member is there or not', (t) => {
  const schema = yup.object({
    kind: yup.string(),
    reason: yup.string().test('needed', '${path} is required for kind other', function (value) {
      return value !== undefined || this.parent.kind !== 'other';
    }),
    note: yup.string(),
  });
  t.throws(() => validate(schema, { kind: 'other' }), { instanceOf: DomainError });
  t.deepEqual(validate(schema, { kind: 'plain' }), { kind: 'plain' });
});
