// A Session a CPO pushes while it runs: PUT stores the whole object, PATCH merges members into the
// stored one (the result must again be a whole Session). Its progress shows in
// GET /msp-charge-session-progress until its CDR arrives (receive-cdr.service.ts).
import type { Em } from '../platform/orm.ts';
import { decimalFromNumber } from '../money/decimal.ts';
import { utc } from './cdr-to-session.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import type { OcpiPeer } from './ocpi-peer.entity.ts';
import { OcpiSession } from './ocpi-session.entity.ts';
import type { OcpiSessionObject } from './schemas/session.ts';
import { acceptOcpi } from './validate.ts';
import { adminOfContractId } from './token-admin.ts';

export interface SessionKey { countryCode: string; partyId: string; sessionId: string }

function checkKey(peer: OcpiPeer, key: SessionKey, value: Pick<OcpiSessionObject, 'country_code' | 'party_id' | 'id'>): void {
  if (!peer.speaksFor(key.countryCode, key.partyId)) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, `party ${key.countryCode}*${key.partyId} is not one of this connection's`, 400);
  }
  if (value.country_code !== key.countryCode || value.party_id !== key.partyId || value.id !== key.sessionId) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, 'country_code, party_id and id of the body must be those of the URL', 400);
  }
}

export async function findSession(em: Em, peer: OcpiPeer, key: SessionKey): Promise<OcpiSession | null> {
  return em.findOne(OcpiSession, { roamingConnectionId: peer.roamingConnectionId, ...key });
}

export async function putSession(em: Em, peer: OcpiPeer, key: SessionKey, raw: unknown): Promise<OcpiSession> {
  const value = acceptOcpi<OcpiSessionObject>('session', raw);
  checkKey(peer, key, value);
  const session = await findSession(em, peer, key) ?? em.create(OcpiSession, {
    roamingConnectionId: peer.roamingConnectionId, ...key, status: value.status, kwh: '0', evseUid: value.evse_uid, evcoId: value.cdr_token.contract_id,
    body: value, lastUpdated: new Date(utc(value.last_updated)), chargeSessionId: null, admin: null,
  });
  await apply(em, session, value);
  await em.flush();
  return session;
}

export async function patchSession(em: Em, peer: OcpiPeer, key: SessionKey, raw: unknown): Promise<OcpiSession> {
  const patch = acceptOcpi<Partial<OcpiSessionObject>>('sessionPatch', raw);
  const session = await findSession(em, peer, key);
  if (!session) throw new OcpiError(OCPI_STATUS.invalidParameters, `no session ${key.sessionId} to patch (PUT it first)`, 404);
  const merged = acceptOcpi<OcpiSessionObject>('session', { ...session.body, ...patch });
  checkKey(peer, key, merged);
  await apply(em, session, merged);
  await em.flush();
  return session;
}

async function apply(em: Em, session: OcpiSession, value: OcpiSessionObject): Promise<void> {
  if (value.cdr_token.contract_id !== session.evcoId || !session.admin) session.admin = await adminOfContractId(em, value.cdr_token.contract_id);
  Object.assign(session, {
    status: value.status, kwh: decimalFromNumber(value.kwh), evseUid: value.evse_uid, evcoId: value.cdr_token.contract_id, body: value,
    lastUpdated: new Date(utc(value.last_updated)),
  });
}
