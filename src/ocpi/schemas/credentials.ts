// OCPI 2.2.1 credentials module: Credentials, CredentialsRole, BusinessDetails (with its Image).
import { arrayOf, countryCode, enumOf, int, object, partyId, ROLES, str, url } from './common.ts';

const IMAGE_CATEGORIES = ['CHARGER', 'ENTRANCE', 'LOCATION', 'NETWORK', 'OPERATOR', 'OTHER', 'OWNER'] as const;

export const imageSchema = object({
  url, thumbnail: url, category: enumOf(IMAGE_CATEGORIES), type: str(4), width: int, height: int,
}, ['url', 'category', 'type']);

export const businessDetailsSchema = object({ name: str(100), website: url, logo: imageSchema }, ['name']);

export const credentialsRoleSchema = object({
  role: enumOf(ROLES), business_details: businessDetailsSchema, party_id: partyId, country_code: countryCode,
}, ['role', 'business_details', 'party_id', 'country_code']);

export const credentialsSchema = object({
  token: { type: 'string', minLength: 1, maxLength: 64 }, url, roles: arrayOf(credentialsRoleSchema, 1),
}, ['token', 'url', 'roles']);

export interface OcpiCredentialsRole {
  role: typeof ROLES[number];
  business_details: { name: string; website?: string };
  party_id: string;
  country_code: string;
}
export interface OcpiCredentials { token: string; url: string; roles: OcpiCredentialsRole[] }
