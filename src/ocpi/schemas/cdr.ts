// OCPI 2.2.1 CDRs module: CDR with CdrToken, CdrLocation, ChargingPeriod, CdrDimension, SignedData;
// its tariffs are Tariff objects (tariff.ts) and its costs Price objects (common.ts).
import {
  arrayOf, AUTH_METHODS, CONNECTOR_FORMATS, CONNECTOR_TYPES, countryCode, dateTime, enumOf, geoLocation, int, number, object, partyId,
  POWER_TYPES, price, str, TOKEN_TYPES,
} from './common.ts';
import { tariffSchema } from './tariff.ts';

export const CDR_DIMENSION_TYPES = [
  'CURRENT', 'ENERGY', 'ENERGY_EXPORT', 'ENERGY_IMPORT', 'MAX_CURRENT', 'MIN_CURRENT', 'MAX_POWER', 'MIN_POWER', 'PARKING_TIME', 'POWER',
  'RESERVATION_TIME', 'STATE_OF_CHARGE', 'TIME',
] as const;

export const cdrTokenSchema = object({
  country_code: countryCode, party_id: partyId, uid: str(36), type: enumOf(TOKEN_TYPES), contract_id: str(36),
}, ['country_code', 'party_id', 'uid', 'type', 'contract_id']);

export const cdrLocationSchema = object({
  id: str(36), name: str(255), address: str(45), city: str(45), postal_code: str(10), state: str(20),
  country: { type: 'string', pattern: '^[A-Z]{3}$' }, coordinates: geoLocation, evse_uid: str(36), evse_id: str(48), connector_id: str(36),
  connector_standard: enumOf(CONNECTOR_TYPES), connector_format: enumOf(CONNECTOR_FORMATS), connector_power_type: enumOf(POWER_TYPES),
}, ['id', 'address', 'city', 'country', 'coordinates', 'evse_uid', 'evse_id', 'connector_id', 'connector_standard', 'connector_format', 'connector_power_type']);

export const cdrDimensionSchema = object({ type: enumOf(CDR_DIMENSION_TYPES), volume: number }, ['type', 'volume']);

export const chargingPeriodSchema = object({
  start_date_time: dateTime, dimensions: arrayOf(cdrDimensionSchema, 1), tariff_id: str(36),
}, ['start_date_time', 'dimensions']);

export const signedDataSchema = object({
  encoding_method: str(36), encoding_method_version: int, public_key: str(512),
  signed_values: arrayOf(object({ nature: str(32), plain_data: str(512), signed_data: str(5000) }, ['nature', 'plain_data', 'signed_data']), 1),
  url: str(512),
}, ['encoding_method', 'signed_values']);

export const cdrSchema = object({
  country_code: countryCode, party_id: partyId, id: { type: 'string', minLength: 1, maxLength: 39 }, start_date_time: dateTime,
  end_date_time: dateTime, session_id: str(36), cdr_token: cdrTokenSchema, auth_method: enumOf(AUTH_METHODS), authorization_reference: str(36),
  cdr_location: cdrLocationSchema, meter_id: str(255), currency: { type: 'string', pattern: '^[A-Z]{3}$' }, tariffs: arrayOf(tariffSchema),
  charging_periods: arrayOf(chargingPeriodSchema, 1), signed_data: signedDataSchema, total_cost: price, total_fixed_cost: price,
  total_energy: number, total_energy_cost: price, total_time: number, total_time_cost: price, total_parking_time: number,
  total_parking_cost: price, total_reservation_cost: price, remark: str(255), invoice_reference_id: str(39), credit: { type: 'boolean' },
  credit_reference_id: str(39), home_charging_compensation: { type: 'boolean' }, last_updated: dateTime,
}, [
  'country_code', 'party_id', 'id', 'start_date_time', 'end_date_time', 'cdr_token', 'auth_method', 'cdr_location', 'currency',
  'charging_periods', 'total_cost', 'total_energy', 'total_time', 'last_updated',
]);

export interface OcpiPrice { excl_vat: number; incl_vat?: number }
export interface OcpiCdr {
  country_code: string; party_id: string; id: string; start_date_time: string; end_date_time: string; session_id?: string;
  cdr_token: { country_code: string; party_id: string; uid: string; type: string; contract_id: string };
  auth_method: string; authorization_reference?: string;
  cdr_location: {
    id: string; name?: string; address: string; city: string; postal_code?: string; country: string; evse_uid: string; evse_id: string;
    connector_id: string; connector_standard: string; connector_format: string; connector_power_type: string;
  };
  currency: string; tariffs?: Record<string, unknown>[];
  charging_periods: { start_date_time: string; dimensions: { type: string; volume: number }[]; tariff_id?: string }[];
  total_cost: OcpiPrice; total_fixed_cost?: OcpiPrice; total_energy: number; total_energy_cost?: OcpiPrice; total_time: number;
  total_time_cost?: OcpiPrice; total_parking_time?: number; total_parking_cost?: OcpiPrice; total_reservation_cost?: OcpiPrice;
  remark?: string; invoice_reference_id?: string; credit?: boolean; last_updated: string;
}
