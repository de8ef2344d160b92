// One of our tokens as an OCPI Token (the tokens module and StartSession carry it): our party,
// the UID (the EVCO id when the token has none), a virtual token as APP_USER, the EVCO id as contract id; valid while our
// authorization would let it start now (authorize-token.service.ts: a current link, its subscription valid, neither the
// token nor that customer blocked); ALLOWED: the CPO may ask us in real time, or start a valid one offline.
// last_updated is the token's updated_at, which the token's own writes move, and every change of that decision: the
// triggers of the token_published_changes and token_validity_published migrations for writes, the job of
// token-validity-bounds.ts for a link or subscription starting or ending (a delta sync by date_from sees `valid` change).
// A token's former identity (uid and type as published here) is published too, not valid (ocpiRetiredTokenOf): the
// trigger of the ocpi_retired_token migration keeps it when the identity changes, by the rule below written in SQL.
import { currentValidity } from '../msp/authorize-token.service.ts';
import type { Token } from '../msp/token.entity.ts';
import type { Em } from '../platform/orm.ts';
import { validityNow } from '../platform/validity.ts';
import type { OcpiRetiredToken } from './ocpi-retired-token.entity.ts';
import { ocpiSettings } from './ocpi-settings.ts';
import { tokenSchema, type OcpiToken } from './schemas/token.ts';

const members = tokenSchema.properties as Record<'uid' | 'contract_id', { maxLength: number }>;

/**
 * Whether a token can be an OCPI Token, in SQL on the token table's `alias`: the uid it is published under (its UID, else
 * its EVCO id) and its EVCO id within OCPI's lengths (Token.uid, Token.contract_id: string(36), from the schema). /main/v1
 * takes longer UIDs (64); such a token is not published (the tokens module leaves it out) and cannot be started by a command
 * (send-command.service.ts checks the StartSession against the same schema).
 */
export const ocpiTokenSql = (alias: string) => `char_length(coalesce(${alias}.uid::text, ${alias}.evco_id::text)) <= ${members.uid.maxLength}`
  + ` and char_length(${alias}.evco_id::text) <= ${members.contract_id.maxLength}`;

/** An OCPI Token of ours: its identity (uid, type), contract id, validity and last change; the rest is our party's. */
function publishedToken(identity: { uid: string; type: OcpiToken['type']; contractId: string; valid: boolean; lastUpdated: Date }): OcpiToken {
  const s = ocpiSettings();
  return {
    country_code: s.countryCode,
    party_id: s.partyId,
    uid: identity.uid,
    type: identity.type,
    contract_id: identity.contractId,
    issuer: s.businessName.slice(0, 64),
    valid: identity.valid,
    whitelist: 'ALLOWED',
    last_updated: identity.lastUpdated.toISOString(),
  };
}

function ocpiTokenOf(token: Token, valid: boolean): OcpiToken {
  return publishedToken({
    uid: token.uid ?? token.evcoId, type: token.formFactor === 'virtual' ? 'APP_USER' : token.uid ? 'RFID' : 'OTHER',
    contractId: token.evcoId, valid, lastUpdated: token.updatedAt,
  });
}

/**
 * A token's former identity (ocpi-retired-token.entity.ts) as an OCPI Token: the uid and type it was published under, the
 * other members as ocpiTokenOf publishes the token's (its EVCO id as contract id), never valid again; last_updated the
 * moment it was retired. Whitelist ALLOWED as every token we publish, `valid: false` says it may not charge (**review**).
 */
export function ocpiRetiredTokenOf(retired: Pick<OcpiRetiredToken, 'uid' | 'type' | 'evcoId' | 'retiredAt'>): OcpiToken {
  return publishedToken({ uid: retired.uid, type: retired.type, contractId: retired.evcoId, valid: false, lastUpdated: retired.retiredAt });
}

/** The tokens as OCPI Tokens, one statement for all: `valid` is their `is_currently_valid`, whether our authorization would let each start now. */
export async function ocpiTokensOf(em: Em, tokens: Token[]): Promise<OcpiToken[]> {
  const valid = await currentValidity(em, tokens, validityNow());
  return tokens.map((token) => ocpiTokenOf(token, valid.get(token.id) === true));
}
