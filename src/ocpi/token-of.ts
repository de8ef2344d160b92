// One of our tokens as an OCPI Token (the tokens module and StartSession carry it): our party,
// the UID (the EVCO id when the token has none), a virtual token as APP_USER, the EVCO id as contract id; valid unless charge
// authorization is blocked; ALLOWED: the CPO may ask us in real time, or start it offline.
import type { Token } from '../msp/token.entity.ts';
import { ocpiSettings } from './ocpi-settings.ts';
import type { OcpiToken } from './schemas/token.ts';

export function ocpiTokenOf(token: Token): OcpiToken {
  const s = ocpiSettings();
  return {
    country_code: s.countryCode,
    party_id: s.partyId,
    uid: token.uid ?? token.evcoId,
    type: token.formFactor === 'virtual' ? 'APP_USER' : token.uid ? 'RFID' : 'OTHER',
    contract_id: token.evcoId,
    issuer: s.businessName.slice(0, 64),
    valid: !token.chargeAuthBlocked,
    whitelist: 'ALLOWED',
    last_updated: token.updatedAt.toISOString(),
  };
}
