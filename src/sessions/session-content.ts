// The known fields of a charge-session body and what "the same content" means for a resubmission
// (../shared/spec/decisions.md "Resubmission"): fields are compared as parsed values - timestamps
// as instants, decimals by value, identifiers and enumerations the way the pipeline reads them
// (casing, separators), an absent optional field equal to null, key order ignored. Fields the
// endpoint does not know are ignored. The REST body schemas (rest/sessions/session-body.ts) declare
// the same fields; a test keeps the two in step.
//
// Only bodies of one stored identity are compared: the ingestion and resubmit-session.service.ts
// find it by the database's comparison (citext), so its session_id (and a CPO session's evse_uid)
// are equal as the database folds them. They are not compared again in JavaScript's casing, which
// differs (U+0130: i + U+0307, citext i): the same session sent again was a change. (A charge
// session's cpo_id, the other part of its identity, is a party id of ASCII letters and digits,
// which both fold alike.)
import { normalize } from '../money/decimal.ts';
import { tryParseEvcoId } from '../msp/evco-id.ts';
import { normalizeEvseId } from '../cpo/evse-id.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { SessionSource } from './charge-session.entity.ts';

/**
 * How one value is read: `text` as is, `caseless` in any casing, `json` deeply (arbitrary JSON),
 * `identity` not at all (part of the session's identity, which the database compared).
 */
type Kind = 'identity' | 'text' | 'caseless' | 'instant' | 'decimal' | 'integer' | 'evco_id' | 'party_id' | 'evse_id' | 'power_type' | 'json';
export type Shape = Kind | { [field: string]: Shape } | [Shape];

const COMMON: Record<string, Shape> = {
  session_id: 'identity',
  evco_id: 'evco_id',
  start_date_time: 'instant',
  end_date_time: 'instant',
  total_energy_kwh: 'decimal',
  total_idle_seconds: 'integer',
  charge_periods: [{ start_date_time: 'instant', dimensions: [{ type: 'caseless', volume: 'decimal' }] }],
  time_zone: 'caseless',
  address: { street: 'text', city: 'text', postal_code: 'text', country: 'caseless' },
  evse_id: 'evse_id',
  connector_standard: 'text',
  connector_format: 'caseless',
  power_type: 'power_type',
  max_power_kw: 'decimal',
  tariff_code: 'text',
  auth_method: 'caseless',
  auth_ref: 'text',
  remark: 'text',
};

/** The fields each endpoint knows, in the order a difference is looked for. */
export const SESSION_FIELDS: Record<SessionSource, Record<string, Shape>> = {
  charge_session: {
    ...COMMON,
    cpo_id: 'party_id',
    cpo_session_id: 'text',
    cpo_cdr_id: 'text',
    roaming_connection_id: 'text',
    roaming_protocol: 'text',
    invoice_reference_id: 'text',
    total_roaming_amount_excl_vat: 'decimal',
    total_roaming_flat_amount_excl_vat: 'decimal',
    total_roaming_energy_amount_excl_vat: 'decimal',
    total_roaming_time_amount_excl_vat: 'decimal',
    total_roaming_reservation_amount_excl_vat: 'decimal',
    total_roaming_amount_incl_vat: 'decimal',
    currency: 'text',
    historical_tariff: 'json',
    roaming_connection: 'text',
    total_cost_excl_vat: 'decimal',
    total_cost_incl_vat: 'decimal',
  },
  cpo_charge_session: {
    ...COMMON, evse_uid: 'identity', cpo_id: 'party_id', location_id: 'caseless', connector_id: 'caseless',
    total_reimbursement_amount_excl_vat: 'decimal',
    total_roaming_amount_excl_vat: 'decimal',
    total_sales_amount_excl_vat: 'decimal',
  },
};

/**
 * Deprecated names and the field they stand for: either name gives the field its value. An
 * endpoint knows the deprecated names its shape lists (v3.50.0 on /charge-session; the CPO
 * session's `total_sales_amount_excl_vat`).
 */
export const DEPRECATED_ALIASES: Record<string, string> = {
  roaming_connection: 'roaming_connection_id',
  total_cost_excl_vat: 'total_roaming_amount_excl_vat',
  total_cost_incl_vat: 'total_roaming_amount_incl_vat',
  total_sales_amount_excl_vat: 'total_roaming_amount_excl_vat',
};

/** The deprecated name of a field in a shape (undefined when the shape has none). */
const aliasIn = (shape: Record<string, Shape>, key: string) =>
  Object.keys(DEPRECATED_ALIASES).find((old) => DEPRECATED_ALIASES[old] === key && Object.hasOwn(shape, old));

const present = (value: unknown) => value !== undefined && value !== null;

function scalar(kind: Kind, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (kind) {
    case 'caseless': return value.toLowerCase();
    // Both bodies passed the endpoint's timestamp check when they were received.
    case 'instant': { const instant = Date.parse(value); return Number.isNaN(instant) ? value : instant; }
    case 'decimal': try { return normalize(value); } catch { return value; }
    case 'evco_id': return tryParseEvcoId(value)?.normalized.slice(0, 14) ?? value.toLowerCase();
    case 'party_id': return value.replace(/[*\-\s]/g, '').toLowerCase();
    case 'evse_id': return normalizeEvseId(value);
    case 'power_type': return value.toLowerCase().replace(/^ac_(\d)_phase/, 'ac_$1phase');
    default: return value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON compared deeply: key order ignored, an absent member equal to null. */
function jsonDifference(a: unknown, b: unknown, path: FieldPath): FieldPath | null {
  if (!present(a) && !present(b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const found = jsonDifference(a[i], b[i], [...path, i]);
      if (found) return found;
    }
    return a.length === b.length ? null : path;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    for (const key of keys) {
      const found = jsonDifference(Object.hasOwn(a, key) ? a[key] : undefined, Object.hasOwn(b, key) ? b[key] : undefined, [...path, key]);
      if (found) return found;
    }
    return null;
  }
  return a === b ? null : path;
}

function difference(shape: Shape, a: unknown, b: unknown, path: FieldPath): FieldPath | null {
  if (!present(a) && !present(b)) return null;
  if (Array.isArray(shape)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return path;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const found = difference(shape[0], a[i], b[i], [...path, i]);
      if (found) return found;
    }
    return a.length === b.length ? null : path;
  }
  if (typeof shape === 'object') {
    if (!isObject(a) || !isObject(b)) return path;
    return objectDifference(shape, a, b, path);
  }
  if (shape === 'identity') return null;
  if (shape === 'json') return jsonDifference(a, b, path);
  if (!present(a) || !present(b)) return path;
  return scalar(shape, a) === scalar(shape, b) ? null : path;
}

function objectDifference(shape: Record<string, Shape>, stored: Record<string, unknown>, sent: Record<string, unknown>, path: FieldPath): FieldPath | null {
  const own = (o: Record<string, unknown>, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);
  for (const [key, member] of Object.entries(shape)) {
    if (Object.hasOwn(DEPRECATED_ALIASES, key)) continue;
    const old = aliasIn(shape, key);
    const pick = (o: Record<string, unknown>) => (present(own(o, key)) || !old ? own(o, key) : own(o, old));
    // Name the field the way this submission wrote it.
    const name = old && !present(own(sent, key)) && present(own(sent, old)) ? old : key;
    const found = difference(member, pick(stored), pick(sent), [...path, name]);
    if (found) return found;
  }
  return null;
}

/**
 * The place of the first known field (in SESSION_FIELDS order) whose parsed value differs
 * between a stored body and a resubmitted one under its identity (as the database found it), or
 * null when they hold the same content.
 */
export function firstDifference(source: SessionSource, stored: Record<string, unknown>, sent: Record<string, unknown>): FieldPath | null {
  return objectDifference(SESSION_FIELDS[source], stored, sent, []);
}

/** The deprecated name of a field on a session's endpoint, if it has one. */
export function deprecatedNameOf(source: SessionSource, name: string): string | undefined {
  return aliasIn(SESSION_FIELDS[source], name);
}

/** A field of the body as received, when the session's endpoint knows it (unknown fields are kept in the body only). */
export function knownField(source: SessionSource, payload: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(SESSION_FIELDS[source], name) || !Object.hasOwn(payload, name)) return null;
  return payload[name] ?? null;
}
