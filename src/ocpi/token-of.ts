// One of our tokens as an OCPI Token (the tokens module and StartSession carry it): our party,
// the UID (the EVCO id when the token has none), a virtual token as APP_USER, the EVCO id as contract id; valid unless charge
// authorization is blocked, the token's own or its current customer's; ALLOWED: the CPO may ask us in real time, or start it offline.
// last_updated is the token's updated_at, which the token's own writes move and, by the triggers of
// the token_published_changes migration, every write that changes the blocked customer it is linked
// to (a delta sync by date_from sees the change of `valid`).
import { authorizeTokens } from '../msp/authorize-token.service.ts';
import type { Token } from '../msp/token.entity.ts';
import type { Em } from '../platform/orm.ts';
import { validityNow } from '../platform/validity.ts';
import { ocpiSettings } from './ocpi-settings.ts';
import type { OcpiToken } from './schemas/token.ts';

function ocpiTokenOf(token: Token, blocked: boolean): OcpiToken {
  const s = ocpiSettings();
  return {
    country_code: s.countryCode,
    party_id: s.partyId,
    uid: token.uid ?? token.evcoId,
    type: token.formFactor === 'virtual' ? 'APP_USER' : token.uid ? 'RFID' : 'OTHER',
    contract_id: token.evcoId,
    issuer: s.businessName.slice(0, 64),
    valid: !blocked,
    whitelist: 'ALLOWED',
    last_updated: token.updatedAt.toISOString(),
  };
}

/**
 * The tokens as OCPI Tokens, one statement for all: a customer whose charge authorization is
 * blocked makes the token of its current subscription not valid, as the real-time authorization
 * refuses it (customer_blocked); it was published valid.
 */
export async function ocpiTokensOf(em: Em, tokens: Token[]): Promise<OcpiToken[]> {
  const authorizations = await authorizeTokens(em, tokens, validityNow());
  return tokens.map((token) => {
    const reason = authorizations.get(token.id)?.reason;
    return ocpiTokenOf(token, token.chargeAuthBlocked || reason === 'token_blocked' || reason === 'customer_blocked');
  });
}
