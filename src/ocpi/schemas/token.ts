// OCPI 2.2.1 tokens module: Token (with EnergyContract), as the eMSP publishes its tokens.
import { countryCode, dateTime, enumOf, object, partyId, str, TOKEN_TYPES } from './common.ts';

export const WHITELIST_TYPES = ['ALWAYS', 'ALLOWED', 'ALLOWED_OFFLINE', 'NEVER'] as const;

export const tokenSchema = object({
  country_code: countryCode, party_id: partyId, uid: str(36), type: enumOf(TOKEN_TYPES), contract_id: str(36), visual_number: str(64),
  issuer: str(64), group_id: str(36), valid: { type: 'boolean' }, whitelist: enumOf(WHITELIST_TYPES), language: str(2),
  default_profile_type: enumOf(['CHEAP', 'FAST', 'GREEN', 'REGULAR']),
  energy_contract: object({ supplier_name: str(64), contract_id: str(64) }, ['supplier_name']),
  last_updated: dateTime,
}, ['country_code', 'party_id', 'uid', 'type', 'contract_id', 'issuer', 'valid', 'whitelist', 'last_updated']);

export interface OcpiToken {
  country_code: string; party_id: string; uid: string; type: typeof TOKEN_TYPES[number]; contract_id: string; visual_number?: string;
  issuer: string; valid: boolean; whitelist: typeof WHITELIST_TYPES[number]; last_updated: string;
}
