// The OCPI 2.2.1 schemas: every one compiles under ajv's strict mode, the fixtures conform, a member
// OCPI does not define or a missing required one is refused; incoming failures are OCPI 2001, outgoing
// ones plain errors.
import test from 'ava';
import { OcpiError } from '../../src/ocpi/errors.ts';
import { OCPI_SCHEMAS, type OcpiSchemaName } from '../../src/ocpi/schemas/index.ts';
import { acceptOcpi, ocpiFailure, sendOcpi } from '../../src/ocpi/validate.ts';
import { cdr, session, tariff } from './fixtures.ts';

test('every schema compiles in strict mode', (t) => {
  for (const name of Object.keys(OCPI_SCHEMAS) as OcpiSchemaName[]) t.notThrows(() => ocpiFailure(name, {}), name);
});

test('fixtures conform', (t) => {
  t.is(ocpiFailure('cdr', cdr('NL-MSP-C12345678-X')), null);
  t.is(ocpiFailure('session', session('NL-MSP-C12345678-X')), null);
  t.is(ocpiFailure('tariff', tariff()), null);
  t.is(ocpiFailure('cdr', cdr('NL-MSP-C1', { tariffs: [tariff()] })), null);
  t.is(ocpiFailure('envelope', { data: [], status_code: 1000, timestamp: '2026-03-02T10:00:00Z' }), null);
});

test('unknown and missing members are refused', (t) => {
  t.regex(ocpiFailure('cdr', cdr('X', { total_cots: 1 }))!, /additional properties \(total_cots\)/);
  const { total_cost: _, ...withoutCost } = cdr('X');
  t.regex(ocpiFailure('cdr', withoutCost)!, /total_cost/);
  t.regex(ocpiFailure('commandResponse', { result: 'OK', timeout: 30 })!, /ACCEPTED/);
  t.is(ocpiFailure('commandResponse', { result: 'ACCEPTED', timeout: 30 }), null);
  t.regex(ocpiFailure('credentials', { token: 'x', url: 'https://a/versions', roles: [] })!, /roles/);
});

test('incoming failures are OCPI 2001, outgoing ones errors', (t) => {
  const incoming = t.throws(() => acceptOcpi('cdr', {}), { instanceOf: OcpiError }) as OcpiError;
  t.is(incoming.statusCode, 2001);
  t.is(incoming.httpStatus, 400);
  const outgoing = t.throws(() => sendOcpi('stopSession', { response_url: 'https://x/y', session_id: 'S', extra: 1 }));
  t.false(outgoing instanceof OcpiError);
});
