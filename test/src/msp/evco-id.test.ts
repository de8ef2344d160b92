import test from 'ava';
import { evcoCheckDigit, evcoIdVariants, parseEvcoId } from '../../../src/msp/evco-id.ts';
import { InvalidInputError } from '../../../src/platform/errors.ts';

// Published contract ids with their check characters: the eMI3 paper "Check Digit Calculation
// for Contract-IDs" (DE83DUIEN83QGZD), eMI3 standard v1.0 part 2 (DE-8AA-CA2B3C4D5-L), GIREVE
// (FR-XYZ-123456789-2), the test vectors of the mobilityid library (T24RZDM0 and the NL-TNM ids),
// and NL-TNM-C00122045-K from the Shell Recharge API examples.
const PUBLISHED: [string, string][] = [
  ['DE83DUIEN83QGZ', 'D'],
  ['DE8AACA2B3C4D5', 'L'],
  ['FRXYZ123456789', '2'],
  ['NN123ABCDEFGHI', 'T'],
  ['ITA1B2C3E4F5G6', '4'],
  ['ESZU8WOX834H1D', 'R'],
  ['PT73902837ABCZ', 'Z'],
  ['DE83DUIEN83ZGQ', 'M'],
  ['DE8AA001234567', '0'],
  ['NLTNM000122045', 'U'],
  ['NLTNM000722345', 'X'],
  ['DETNM000029658', 'Q'],
  ['NLBMW0000009L1', 'Z'],
  ['NLTNMC00122045', 'K'],
];

test('check digits of published contract ids', (t) => {
  for (const [id, check] of PUBLISHED) t.is(evcoCheckDigit(id), check, id);
  t.is(evcoCheckDigit('de83duien83qgz'), 'D', 'case-insensitive');
});

test('every published id parses with and without separators and check digit', (t) => {
  for (const [id, check] of PUBLISHED) {
    const dashed = `${id.slice(0, 2)}-${id.slice(2, 5)}-${id.slice(5)}-${check}`;
    const starred = dashed.replaceAll('-', '*').toLowerCase();
    for (const text of [id + check, dashed, starred]) {
      const parsed = parseEvcoId(text);
      t.is(parsed.normalized, id + check, text);
      t.is(parsed.formatted, dashed, text);
      t.is(parsed.checkDigit, check);
    }
    const without = parseEvcoId(`${id.slice(0, 2)}-${id.slice(2, 5)}-${id.slice(5)}`);
    t.is(without.normalized, id);
    t.is(without.checkDigit, null);
    t.is(without.formatted, dashed.slice(0, -2));
  }
});

test('parts and original casing', (t) => {
  const parsed = parseEvcoId('Nl-TnM-c00122045-k');
  t.deepEqual(parsed, {
    normalized: 'NLTNMC00122045K', formatted: 'NL-TNM-C00122045-K', countryCode: 'NL', providerId: 'TNM',
    instance: 'C00122045', checkDigit: 'K', compact: 'NlTnMc00122045k',
  });
});

test('a wrong check digit, a wrong shape or mixed separators are refused at $.evco_id', (t) => {
  for (const text of [
    'NL-TNM-C00122045-X', 'NLTNMC00122045L', 'NL-TNM-C0012204', 'NLTNMC001220455X', 'N1-TNM-C00122045', 'NL-TN-C00122045-K',
    'NL-TNM*C00122045-K', 'NL-TNMC00122045-K', 'NL--TNM-C00122045', ' NLTNMC00122045', 'NL-TNM-C0012204!', '', 'NL_TNM_C00122045',
  ]) {
    const error = t.throws(() => parseEvcoId(text), { instanceOf: InvalidInputError }, text);
    t.deepEqual(error?.fieldPath, ['evco_id']);
  }
});

test('every single-character change of a valid id is detected', (t) => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const id = 'NLTNMC00122045';
  for (let i = 0; i < id.length; i++) {
    for (const char of alphabet) {
      if (char === id[i]) continue;
      const changed = id.slice(0, i) + char + id.slice(i + 1);
      t.not(evcoCheckDigit(changed), 'K', changed);
    }
  }
});

test('look-up variants are the id with and without check digit', (t) => {
  t.deepEqual(evcoIdVariants('nl-tnm-c00122045'), ['NLTNMC00122045', 'NLTNMC00122045K']);
  t.deepEqual(evcoIdVariants('NLTNMC00122045K'), ['NLTNMC00122045', 'NLTNMC00122045K']);
  t.deepEqual(evcoIdVariants('no eMA id'), ['no eMA id']);
});
