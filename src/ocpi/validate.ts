// The one check of every OCPI message the service sends or accepts, against schemas/ (compiled once).
// Incoming: a failure is the peer's, OCPI status 2001 (the transport answers HTTP 400 with the envelope).
// Outgoing: a failure is ours, a plain Error, so a wrong member fails the tests that send it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { OCPI_SCHEMAS, type OcpiSchemaName } from './schemas/index.ts';

const ajv = new Ajv({ strict: true, allErrors: false });
// `x-calendar-date: true` (an extension keyword, as the OpenAPI document shows it): a YYYY-MM-DD string that names a day of the calendar.
ajv.addKeyword({
  keyword: 'x-calendar-date', type: 'string', schemaType: 'boolean',
  validate: (on: boolean, value: string) => !on || (!Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)),
});
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
  return `${name} ${where} ${e.message}${extra}`;
}

/** The failure of `value` as an OCPI `name`, or null when it conforms. */
export function ocpiFailure(name: OcpiSchemaName, value: unknown): string | null {
  const fn = validator(name);
  return fn(value) ? null : describe(name, fn.errors);
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
