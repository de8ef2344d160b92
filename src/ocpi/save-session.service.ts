// A Session a CPO pushes while it runs: PUT stores the whole object, PATCH merges members into the
// stored one (the result must again be a whole Session). Its progress shows in
// GET /msp-charge-session-progress until its CDR arrives (session-cdr-link.ts: also when the CDR came
// first). An update older than the stored Session (its last_updated before the stored one's) is
// answered success and changes nothing. Each update taken carries the Session to the administration
// its driver's token belongs to now.
import type { Em } from '../platform/orm.ts';
import { decimalFromNumber, isDecimalText } from '../money/decimal.ts';
import { checkedOcpiDateTime } from './date-time.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { speaksFor } from './ocpi-peer.entity.ts';
import type { OcpiPeerData } from './ocpi-peer.queries.ts';
import { lockedSession } from './ocpi-object-lock.ts';
import { OcpiSession } from './ocpi-session.entity.ts';
import type { SessionKey } from './ocpi-session.queries.ts';
import type { OcpiSessionObject } from './schemas/session.ts';
import { chargeSessionOfCdrs } from './session-cdr-link.ts';
import { acceptOcpi } from './validate.ts';
import { adminOfContractId } from './token-admin.ts';

type Caller = Pick<OcpiPeerData, 'roamingConnectionId' | 'roles'>;

function checkKey(peer: Caller, key: SessionKey, value: Pick<OcpiSessionObject, 'country_code' | 'party_id' | 'id'>): void {
  if (!speaksFor(peer, key.countryCode, key.partyId)) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, `party ${key.countryCode}*${key.partyId} is not one of this connection's`, 400);
  }
  if (value.country_code !== key.countryCode || value.party_id !== key.partyId || value.id !== key.sessionId) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, 'country_code, party_id and id of the body must be those of the URL', 400);
  }
}

/**
 * kwh as stored (numeric(20,6)), bounded as a CDR's total_energy is (rest/sessions/session-body.ts,
 * a decimal of at most 14 integer digits): 10^14 kWh or more is OCPI 2001 naming the member.
 */
function storedKwh(value: Pick<OcpiSessionObject, 'kwh'>): string {
  const kwh = value.kwh < 1e14 ? decimalFromNumber(value.kwh) : null;
  if (kwh === null || !isDecimalText(kwh)) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, 'session /kwh must be less than 100000000000000 (at most 14 integer digits, as a CDR\'s total_energy)', 400);
  }
  return kwh;
}

/**
 * An update whose last_updated is before the stored Session's: OCPI messages may arrive out of order,
 * and an older one is answered success but changes nothing (an equal one is taken).
 */
const isOlder = (session: OcpiSession, value: OcpiSessionObject) => checkedOcpiDateTime(value.last_updated).getTime() < session.lastUpdated.getTime();

export async function putSession(em: Em, peer: Caller, key: SessionKey, raw: unknown): Promise<void> {
  const value = acceptOcpi<OcpiSessionObject>('session', raw);
  checkKey(peer, key, value);
  storedKwh(value);
  await em.transactional(async (tx) => {
    const stored = await lockedSession(tx, peer.roamingConnectionId, key);
    if (stored && isOlder(stored, value)) return;
    const session = stored ?? tx.create(OcpiSession, {
      roamingConnectionId: peer.roamingConnectionId, ...key, status: value.status, kwh: '0', evseUid: value.evse_uid, evcoId: value.cdr_token.contract_id,
      body: value, lastUpdated: checkedOcpiDateTime(value.last_updated), admin: null,
      chargeSessionId: await chargeSessionOfCdrs(tx, peer.roamingConnectionId, key, value.cdr_token.contract_id),
    });
    await apply(tx, session, value);
  });
}

export async function patchSession(em: Em, peer: Caller, key: SessionKey, raw: unknown): Promise<void> {
  const patch = acceptOcpi<Partial<OcpiSessionObject>>('sessionPatch', raw);
  await em.transactional(async (tx) => {
    const session = await lockedSession(tx, peer.roamingConnectionId, key);
    if (!session) throw new OcpiError(OCPI_STATUS.invalidParameters, `no session ${key.sessionId} to patch (PUT it first)`, 404);
    const merged = acceptOcpi<OcpiSessionObject>('session', { ...session.body, ...patch });
    checkKey(peer, key, merged);
    storedKwh(merged);
    if (isOlder(session, merged)) return;
    await apply(tx, session, merged);
  });
}

/**
 * Every update taken derives the administration again from the token's current one: a driver's token that moved to
 * another administration takes its running Session along (what concerns a driver belongs to its token's administration).
 */
async function apply(em: Em, session: OcpiSession, value: OcpiSessionObject): Promise<void> {
  session.admin = await adminOfContractId(em, value.cdr_token.contract_id);
  Object.assign(session, {
    status: value.status, kwh: storedKwh(value), evseUid: value.evse_uid, evcoId: value.cdr_token.contract_id, body: value,
    lastUpdated: checkedOcpiDateTime(value.last_updated),
  });
}
