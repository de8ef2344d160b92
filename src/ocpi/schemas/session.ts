// OCPI 2.2.1 sessions module: Session (its token, periods and cost reuse the CDR's classes).
import { arrayOf, AUTH_METHODS, countryCode, dateTime, enumOf, object, partyId, price, str } from './common.ts';
import { cdrTokenSchema, chargingPeriodSchema } from './cdr.ts';

export const SESSION_STATUSES = ['ACTIVE', 'COMPLETED', 'INVALID', 'PENDING', 'RESERVATION'] as const;

const sessionProperties = {
  country_code: countryCode, party_id: partyId, id: str(36), start_date_time: dateTime, end_date_time: dateTime,
  kwh: { type: 'number', minimum: 0 }, cdr_token: cdrTokenSchema, auth_method: enumOf(AUTH_METHODS), authorization_reference: str(36),
  location_id: str(36), evse_uid: str(36), connector_id: str(36), meter_id: str(255), currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  charging_periods: arrayOf(chargingPeriodSchema), total_cost: price, status: enumOf(SESSION_STATUSES), last_updated: dateTime,
};

export const sessionSchema = object(sessionProperties, [
  'country_code', 'party_id', 'id', 'start_date_time', 'kwh', 'cdr_token', 'auth_method', 'location_id', 'evse_uid', 'connector_id',
  'currency', 'status', 'last_updated',
]);

/** PATCH: any subset of the members, last_updated always (OCPI: "the last_updated field is required"). */
export const sessionPatchSchema = object(sessionProperties, ['last_updated']);

export interface OcpiSessionObject {
  country_code: string; party_id: string; id: string; start_date_time: string; end_date_time?: string; kwh: number;
  cdr_token: { uid: string; contract_id: string; country_code: string; party_id: string; type: string };
  location_id: string; evse_uid: string; connector_id: string; currency: string; status: typeof SESSION_STATUSES[number]; last_updated: string;
}
