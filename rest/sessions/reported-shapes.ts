// What a session reported, typed in the document (decisions: "Responses and the OpenAPI document"):
// its address and charge periods as the body of POST /charge-session and /cpo-charge-session
// define them (rest/sessions/session-body.ts). The stored body is kept as received; these read the
// members the document names (a member the endpoint did not know is in the session as received,
// GET /msp-charge-session-original).
import { representation, t, type Infer } from '../rails/shape.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { parseTimestamp } from '../../src/platform/timestamp.ts';

export const reportedAddressShape = representation('ReportedAddress', {
  street: t.nullable(t.string()),
  city: t.nullable(t.string()),
  postal_code: t.nullable(t.string()),
  country: t.string('ISO 3166-1 alpha-2, as reported (any casing).'),
}, 'The address of the charge point as the session reported it.');

export const reportedChargePeriodShape = representation('ReportedChargePeriod', {
  start_date_time: t.timestamp(),
  dimensions: t.array(t.object({ type: t.string('energy (any casing)'), volume: t.decimal() })),
}, 'A charge period as the session reported it.');

type Reported = Record<string, unknown> | null | undefined;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A reported timestamp in UTC with milliseconds (the body schema checked it with the same parser; else as stored). */
const utc = (value: unknown): string => {
  const instant = parseTimestamp(value);
  return instant ? iso(instant) : textOrNull(value) ?? '';
};

/** The address of a stored session body. */
export function reportedAddress(payload: Reported): Infer<typeof reportedAddressShape> {
  const address = isObject(payload?.address) ? payload.address : {};
  return {
    street: textOrNull(address.street), city: textOrNull(address.city), postal_code: textOrNull(address.postal_code),
    country: textOrNull(address.country) ?? '',
  };
}

/**
 * Charge periods as stored (a session body's `charge_periods`, a reimbursement's copy of them), their
 * start written as every timestamp the service answers: UTC with milliseconds (shared decisions,
 * "Identifiers and time"); the sender's own text stays in GET /msp-charge-session-original.
 */
export function reportedChargePeriods(periods: unknown): Infer<typeof reportedChargePeriodShape>[] {
  if (!Array.isArray(periods)) return [];
  return periods.filter(isObject).map((period) => ({
    start_date_time: utc(period.start_date_time),
    dimensions: (Array.isArray(period.dimensions) ? period.dimensions : []).filter(isObject)
      .map((dimension) => ({ type: textOrNull(dimension.type) ?? '', volume: textOrNull(dimension.volume) ?? '0' })),
  }));
}
