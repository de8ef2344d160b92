import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { isStaleUpdate } from '../parties/customer-input.ts';
import { withCurrentValidity } from './authorize-token.service.ts';
import { existingBrandCode } from './token-brand.service.ts';
import { UID_TYPES, type FormFactor, type UidType } from './token-reference-data.ts';
import { findTokenByEvcoId } from './token-lookup.ts';
import { Token } from './token.entity.ts';

export interface TokenFields {
  brandCode: string;
  uid: string;
  uidType: UidType;
  /** Set on creation only: a merge- or replace-update ignores it. */
  formFactor: FormFactor;
  vehicleVin: string;
  externalUpdatedAt: Date;
}

export type TokenPatch = Patch<TokenFields>;

/** ISO 3779: 17 characters, no I, O or Q. */
const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;

export function checkVin(vin: string): string {
  const value = vin.toUpperCase();
  if (!VIN.test(value)) throw new InvalidInputError('vehicle_vin must be 17 letters and digits (ISO 3779: no I, O or Q)', { path: ['vehicle_vin'] });
  return value;
}

/** A UID must fit its type's pattern; RFID UIDs are hex, stored upper case. */
export function checkTokenUid(uid: string, uidType: UidType | null | undefined): string {
  const type = UID_TYPES.find((t) => t.id === uidType);
  const value = type && type.id !== 'app_user' ? uid.toUpperCase() : uid;
  if (type && !new RegExp(type.pattern).test(value)) {
    throw new InvalidInputError(`uid does not fit token_uid_type_id ${type.id} (${type.name})`, { path: ['uid'] });
  }
  return value;
}

/**
 * OCPI identifies a token by its uid and type (APP_USER: a virtual token; RFID: another with a uid),
 * case-insensitively (CiString; the column is citext): a second token of one uid and type made a
 * roaming partner, which keys its tokens so, take it for the first. A lock per uid, held by the
 * caller's transaction (a class of its own, after the eMA ids' 736400123), orders issues and
 * updates sent at once; outside a transaction the check could not hold until the write, so a call
 * there is a programming error.
 */
export async function assertUidFree(em: Em, uid: string, virtual: boolean, tokenId?: string, path: FieldPath = ['uid']): Promise<void> {
  if (!em.isInTransaction()) throw new Error('assertUidFree needs the transaction that writes the uid (its lock holds until the commit)');
  await em.execute('select pg_advisory_xact_lock(736400124, hashtext(lower(?)))', [uid]);
  // An app token without a uid is published under its evco_id (src/ocpi/token-of.ts): that is its uid too
  // (found by probing, 2026-11-29: two APP_USER tokens were published with one uid).
  const [taken] = await em.execute<{ id: string }[]>(`select id from msp_token
    where (uid = ?::citext or (? and form_factor = 'virtual' and uid is null and evco_id = ?::citext)) and (form_factor = 'virtual') = ?
    and id is distinct from ?::uuid limit 1`, [uid, virtual, uid, virtual, tokenId ?? null]);
  if (taken) throw new DomainError('duplicate', 'uid is already used by another token of its kind (OCPI identifies a token by uid and type)', { path });
}

/** The token entity a write changes, or 400 not_found. */
async function loadToken(em: Em, evcoId: string): Promise<Token> {
  const token = await findTokenByEvcoId(em, evcoId);
  if (!token) throw new NotFoundError('token');
  return token;
}

/** What a write answers (token.queries.ts TokenData): the token's data with its current validity. */
async function answer(em: Em, token: Token): Promise<Data<Token> & { isCurrentlyValid: boolean }> {
  return (await withCurrentValidity(em, [plainData(token)]))[0];
}

/**
 * POST /msp-token/{evco_id} (merge) and the deprecated PUT (a patch with every field present).
 * Tokens are created by the series and subscription operations, so an unknown evco_id is 400.
 */
export function updateToken(em: Em, evcoId: string, patch: TokenPatch): Promise<Data<Token> & { isCurrentlyValid: boolean }> {
  return em.transactional(async (tx) => {
    const token = await loadToken(tx, evcoId);
    if (isStaleUpdate(token.externalUpdatedAt, patch.externalUpdatedAt)) return answer(tx, token);
    if (patch.brandCode !== undefined) {
      token.brandCode = patch.brandCode === null ? null : await existingBrandCode(tx, patch.brandCode);
    }
    if (patch.uidType !== undefined) token.uidType = patch.uidType;
    if (patch.uid !== undefined && token.formFactor === 'plug_and_charge' && patch.uid?.toUpperCase() !== token.evcoId.toUpperCase()) {
      // Its uid is its eMAID, the evco_id (ISO 15118): another would be published for another contract.
      throw new InvalidInputError('a plug-and-charge token\'s uid is its evco_id', { path: ['uid'] });
    }
    const uidBefore = token.uid;
    if (patch.uid !== undefined) token.uid = patch.uid;
    if ((patch.uid !== undefined || patch.uidType !== undefined) && token.uid != null) {
      token.uid = checkTokenUid(token.uid, token.uidType);
      await assertUidFree(tx, token.uid, token.formFactor === 'virtual', token.id);
    } else if (uidBefore != null && token.uid == null && token.formFactor === 'virtual') {
      // An app token without a uid is published under its evco_id (token-of.ts): clearing the uid is setting that one,
      // checked as an issue without uid is (found by probing, 2026-11-29: another app token had taken it as uid meanwhile).
      await assertUidFree(tx, token.evcoId, true, token.id);
    }
    if (patch.vehicleVin !== undefined) token.vehicleVin = patch.vehicleVin === null ? null : checkVin(patch.vehicleVin);
    if (patch.externalUpdatedAt !== undefined) token.externalUpdatedAt = patch.externalUpdatedAt;
    await tx.flush();
    return answer(tx, token);
  });
}

export async function setTokenChargeAuthBlocked(em: Em, evcoId: string, blocked: boolean): Promise<Data<Token> & { isCurrentlyValid: boolean }> {
  const token = await loadToken(em, evcoId);
  if (blocked) token.blockChargeAuthRequests();
  else token.unblockChargeAuthRequests();
  await em.flush();
  return answer(em, token);
}
