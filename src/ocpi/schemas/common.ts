// OCPI 2.2.1 building blocks shared by the object schemas (part "Types" and the common classes).
// JSON Schema for ajv; objects OCPI defines completely refuse members it does not define.

import { COUNTRY_CODES } from '../../platform/countries.ts';

export type JsonSchema = Record<string, unknown>;

/** CiString/string(n): OCPI limits strings by length; the content is printable text. */
export const str = (max: number): JsonSchema => ({ type: 'string', maxLength: max });

/**
 * DateTime: RFC 3339 in UTC as OCPI writes it (`2015-06-29T20:39:09Z`, fractions allowed, Z optional), a
 * date and time that exist (`x-date-time`, validate.ts: the one timestamp reader; not 2026-02-30T24:00:00).
 */
export const dateTime: JsonSchema = {
  type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]00:00)?$', 'x-date-time': true,
};

export const url: JsonSchema = { type: 'string', maxLength: 255, pattern: '^https?://' };
export const number: JsonSchema = { type: 'number' };
export const int: JsonSchema = { type: 'integer' };
export const enumOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
/** A list of at most `maxItems` (1,000 by default: a CDR's periods, a tariff's elements ...). */
export const arrayOf = (items: JsonSchema, minItems = 0, maxItems = 1000): JsonSchema =>
  (minItems ? { type: 'array', items, minItems, maxItems } : { type: 'array', items, maxItems });

/** A fully defined OCPI object: the listed members, the required ones, nothing else. */
export function object(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** OCPI writes it upper-case; an officially assigned ISO 3166-1 alpha-2 code (src/platform/countries.ts). */
export const countryCode = { type: 'string', enum: [...COUNTRY_CODES] };
export const partyId = { type: 'string', pattern: '^[A-Z0-9]{3}$' };

export const displayText = object({ language: str(2), text: str(512) }, ['language', 'text']);
export const price = object({ excl_vat: number, incl_vat: number }, ['excl_vat']);
export const geoLocation = object({
  latitude: { type: 'string', pattern: '^-?[0-9]{1,2}\\.[0-9]{5,7}$' },
  longitude: { type: 'string', pattern: '^-?[0-9]{1,3}\\.[0-9]{5,7}$' },
}, ['latitude', 'longitude']);

export const TOKEN_TYPES = ['AD_HOC_USER', 'APP_USER', 'OTHER', 'RFID'] as const;
export const AUTH_METHODS = ['AUTH_REQUEST', 'COMMAND', 'WHITELIST'] as const;
export const ROLES = ['CPO', 'EMSP', 'HUB', 'NAP', 'NSP', 'OTHER', 'SCSP'] as const;
export const CONNECTOR_FORMATS = ['SOCKET', 'CABLE'] as const;
export const POWER_TYPES = ['AC_1_PHASE', 'AC_2_PHASE', 'AC_2_PHASE_SPLIT', 'AC_3_PHASE', 'DC'] as const;
export const CONNECTOR_TYPES = [
  'CHADEMO', 'CHAOJI', 'DOMESTIC_A', 'DOMESTIC_B', 'DOMESTIC_C', 'DOMESTIC_D', 'DOMESTIC_E', 'DOMESTIC_F', 'DOMESTIC_G', 'DOMESTIC_H',
  'DOMESTIC_I', 'DOMESTIC_J', 'DOMESTIC_K', 'DOMESTIC_L', 'DOMESTIC_M', 'DOMESTIC_N', 'DOMESTIC_O', 'GBT_AC', 'GBT_DC', 'IEC_60309_2_single_16',
  'IEC_60309_2_three_16', 'IEC_60309_2_three_32', 'IEC_60309_2_three_64', 'IEC_62196_T1', 'IEC_62196_T1_COMBO', 'IEC_62196_T2',
  'IEC_62196_T2_COMBO', 'IEC_62196_T3A', 'IEC_62196_T3C', 'NEMA_5_20', 'NEMA_6_30', 'NEMA_6_50', 'NEMA_10_30', 'NEMA_10_50', 'NEMA_14_30',
  'NEMA_14_50', 'PANTOGRAPH_BOTTOM_UP', 'PANTOGRAPH_TOP_DOWN', 'TESLA_R', 'TESLA_S',
] as const;
