// The one check of every OCPI message the service sends or accepts, against schemas/ (compiled once).
// Incoming: a failure is the peer's, OCPI status 2001 (the transport answers HTTP 400 with the envelope).
// Outgoing: a failure is ours, a plain Error, so a wrong member fails the tests that send it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { OCPI_DATE_TIME_FORMAT, ocpiDateTime } from './date-time.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { OCPI_SCHEMAS, type OcpiSchemaName } from './schemas/index.ts';

const ajv = new Ajv({ strict: true, allErrors: false });
// Extension keywords (the OpenAPI document shows them as they are): `x-date-time: true`, an OCPI
// DateTime the calendar and the clock have; `x-calendar-date: true`, a YYYY-MM-DD that names a day of
// the calendar. Both read by the one timestamp reader (src/platform/timestamp.ts, through date-time.ts).
ajv.addKeyword({ keyword: 'x-date-time', type: 'string', schemaType: 'boolean', validate: (on: boolean, value: string) => !on || ocpiDateTime(value) !== null });
ajv.addKeyword({ keyword: 'x-calendar-date', type: 'string', schemaType: 'boolean', validate: (on: boolean, value: string) => !on || parseDate(value) !== null });
/** What a failed extension keyword says. */
const KEYWORD_MESSAGES: Record<string, string> = { 'x-date-time': `must be ${OCPI_DATE_TIME_FORMAT}`, 'x-calendar-date': `must be ${DATE_FORMAT}` };
const compiled = new Map<OcpiSchemaName, ValidateFunction>();

function validator(name: OcpiSchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) compiled.set(name, fn = ajv.compile(OCPI_SCHEMAS[name]));
  return fn;
}

/** The allowed values of a short enumeration; a long one (the 249 country codes) is only named. */
const enumHint = (values: string[]) => (values.length <= 20 ? ` (${values.join(', ')})` : ` (one of ${values.length} values)`);

function describe(name: string, errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return `${name}: invalid`;
  const where = e.instancePath || '/';
  const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
    : e.keyword === 'enum' ? enumHint((e.params as { allowedValues: string[] }).allowedValues) : '';
  return `${name} ${where} ${KEYWORD_MESSAGES[e.keyword] ?? e.message}${extra}`;
}

/** The first failure of `value` as an OCPI `name`: where (a JSON Pointer, '' for the whole) and what; null when it conforms. */
export function ocpiProblem(name: OcpiSchemaName, value: unknown): { pointer: string; failure: string } | null {
  const fn = validator(name);
  return fn(value) ? null : { pointer: fn.errors?.[0]?.instancePath ?? '', failure: describe(name, fn.errors) };
}

/** The failure of `value` as an OCPI `name`, or null when it conforms. */
export function ocpiFailure(name: OcpiSchemaName, value: unknown): string | null {
  return ocpiProblem(name, value)?.failure ?? null;
}

/** An incoming message: OcpiError 2001 when it does not conform. */
export function acceptOcpi<T>(name: OcpiSchemaName, value: unknown): T {
  const failure = ocpiFailure(name, value);
  if (failure) throw new OcpiError(OCPI_STATUS.invalidParameters, failure, 400);
  return value as T;
}

/** An outgoing message: an Error (our bug) when it does not conform. */
export function sendOcpi<T>(name: OcpiSchemaName, value: T): T {
  const failure = ocpiFailure(name, value);
  if (failure) throw new Error(`outgoing OCPI message does not conform: ${failure}`);
  return value;
}
