// The OCPI credentials handshake, both directions (OCPI 2.2.1 part "Credentials module"):
// - we register: the peer gave us token A and its versions URL; we read its versions and 2.2.1
//   endpoints with A, POST our credentials with a new token B and keep the token C it answers;
// - the peer registers: we issued token A; it POSTs its credentials (token B) to us, we read its
//   versions and endpoints with B and answer our credentials with a new token C.
import { LockMode } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import type { Em } from '../platform/orm.ts';
import { callPeer, peerUrlProblem, shownUrl } from './ocpi-client.ts';
import { logger } from '../platform/log.ts';
import { NO_VALID_TOKEN, OcpiError, OCPI_STATUS } from './errors.ts';
import { OcpiPeer } from './ocpi-peer.entity.ts';
import { ocpiPeerData, type OcpiPeerData } from './ocpi-peer.queries.ts';
import { OCPI_VERSION, ourCredentials } from './our-party.ts';
import type { OcpiCredentials } from './schemas/credentials.ts';
import type { OcpiVersion, OcpiVersionDetails } from './schemas/version.ts';
import { newToken } from './token-header.ts';

/** The OCPI side of an existing roaming connection (created on first use). */
async function peerFor(em: Em, roamingConnectionId: string): Promise<OcpiPeer> {
  if (!await em.findOne(RoamingConnection, { id: roamingConnectionId }, { filters: false })) throw new NotFoundError('roaming connection');
  return await em.findOne(OcpiPeer, { roamingConnectionId })
    ?? em.create(OcpiPeer, { roamingConnectionId, status: 'token_a_issued', ourRole: 'EMSP', versionsUrl: null, tokenSend: null, tokenAccept: null, version: null });
}

/**
 * The party ids a peer claims in its credentials, when its connection belongs to a partner: each must
 * be one of that partner's (decisions: a party id belongs to one partner, a peer speaks only for its
 * own parties). A hub's connection has no partner and relays other parties' ids.
 */
async function rolesNotOfPartner(em: Em, roamingConnectionId: string, roles: OcpiCredentials['roles']): Promise<string[]> {
  const connection = await em.findOne(RoamingConnection, { id: roamingConnectionId }, { filters: false, populate: ['partner'] });
  const partner = connection?.partner;
  if (!partner) return [];
  const own = new Set([...partner.cpoIds, ...partner.mspIds].map((id) => id.toUpperCase()));
  return roles.map((role) => `${role.country_code}${role.party_id}`.toUpperCase()).filter((party) => !own.has(party));
}

/** The peer's 2.2.1 details, read from its versions URL with `token`. */
async function readEndpoints(versionsUrl: string, token: string): Promise<OcpiVersionDetails> {
  const versions = await callPeer<OcpiVersion[]>({ method: 'GET', url: versionsUrl, token, answer: 'versions' });
  const mutual = versions.find((v) => v.version === OCPI_VERSION);
  if (!mutual) throw new OcpiError(OCPI_STATUS.unsupportedVersion, `the peer offers no OCPI ${OCPI_VERSION} (${versions.map((v) => v.version).join(', ')})`);
  return callPeer<OcpiVersionDetails>({ method: 'GET', url: mutual.url, token, answer: 'versionDetails' });
}

/**
 * readEndpoints for a peer registering with us (POST or PUT credentials): a URL the service will not
 * call is 2001 at `url`; a failure to read the versions and endpoints is 3001 (3002: no 2.2.1) with
 * HTTP 400 and without what the target answered (its status, body, or how the connection failed),
 * so that a peer cannot probe other hosts through us; the operator finds the detail in the log.
 */
async function readEndpointsOfPeer(versionsUrl: string, token: string): Promise<OcpiVersionDetails> {
  const problem = peerUrlProblem(versionsUrl);
  if (problem) throw new OcpiError(OCPI_STATUS.invalidParameters, `url ${problem}`, 400);
  try {
    return await readEndpoints(versionsUrl, token);
  } catch (error) {
    if (!(error instanceof OcpiError)) throw error;
    logger().warn({ url: shownUrl(versionsUrl), reason: error.message }, 'OCPI registration by a peer: its versions and endpoints could not be read');
    if (error.statusCode === OCPI_STATUS.unsupportedVersion) throw new OcpiError(OCPI_STATUS.unsupportedVersion, `the versions at url offer no OCPI ${OCPI_VERSION}`, 400);
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi,
      `unable to use the versions endpoint at url: no OCPI ${OCPI_VERSION} versions and endpoints could be read from it with the token given`, 400);
  }
}

/** Issues token A for a peer that will register with us (a new one replaces an unused one). */
export async function issueTokenA(em: Em, roamingConnectionId: string): Promise<{ peer: OcpiPeerData; tokenA: string }> {
  assertMayChangeInstanceWide(callerScope(em), 'OCPI registrations');
  const peer = await peerFor(em, roamingConnectionId);
  if (peer.status === 'registered') throw new DomainError('invalid_input', 'the connection is registered already; unregister it first', { path: [] });
  const tokenA = newToken();
  peer.status = 'token_a_issued';
  peer.tokenAccept = tokenA;
  await em.flush();
  return { peer: ocpiPeerData(em, peer), tokenA };
}

/** We register with the peer using its token A. `origin`: our base URL when none is configured. */
export async function registerWithPeer(em: Em, input: { roamingConnectionId: string; versionsUrl: string; tokenA: string; origin: string }): Promise<OcpiPeerData> {
  assertMayChangeInstanceWide(callerScope(em), 'OCPI registrations');
  const peer = await peerFor(em, input.roamingConnectionId);
  if (peer.status === 'registered') throw new DomainError('invalid_input', 'the connection is registered already; unregister it first', { path: [] });
  try {
    const details = await readEndpoints(input.versionsUrl, input.tokenA);
    const credentialsUrl = details.endpoints.find((e) => e.identifier === 'credentials')?.url;
    if (!credentialsUrl) throw new OcpiError(OCPI_STATUS.noMatchingEndpoints, 'the peer has no credentials endpoint');
    // Token B must be known before the POST: the peer reads our versions with it while answering.
    const tokenB = newToken();
    Object.assign(peer, { versionsUrl: input.versionsUrl, tokenSend: input.tokenA, tokenAccept: tokenB, version: OCPI_VERSION, endpoints: details.endpoints });
    await em.flush();
    const theirs = await callPeer<OcpiCredentials>({
      method: 'POST', url: credentialsUrl, token: input.tokenA, body: { schema: 'credentials', value: ourCredentials(tokenB, input.origin) }, answer: 'credentials',
    });
    const foreign = await rolesNotOfPartner(em, input.roamingConnectionId, theirs.roles);
    if (foreign.length) throw new OcpiError(OCPI_STATUS.invalidParameters, `the peer's roles ${foreign.join(', ')} are not parties of the connection's partner`);
    Object.assign(peer, { tokenSend: theirs.token, roles: theirs.roles, status: 'registered' });
    await em.flush();
    return ocpiPeerData(em, peer);
  } catch (error) {
    if (error instanceof OcpiError) throw new DomainError('invalid_input', `OCPI registration failed: ${error.message}`, { path: [] });
    throw error;
  }
}

/**
 * The peer registers with us (POST credentials with the token A we issued) or renews (PUT with its
 * token C): our credentials with a new token C. The token it presented is spent under the peer's row
 * lock: of two registrations with one token at once, the later finds it spent and is refused as a
 * request with a spent token is (401), its endpoints read for nothing.
 */
export async function acceptRegistration(em: Em, caller: Pick<OcpiPeerData, 'id' | 'tokenAccept'>, theirs: OcpiCredentials, origin: string): Promise<OcpiCredentials> {
  const { roamingConnectionId } = await em.findOneOrFail(OcpiPeer, { id: caller.id });
  const foreign = await rolesNotOfPartner(em, roamingConnectionId, theirs.roles);
  if (foreign.length) throw new OcpiError(OCPI_STATUS.invalidParameters, `roles ${foreign.join(', ')} are not parties of this connection's partner`, 400);
  const details = await readEndpointsOfPeer(theirs.url, theirs.token);
  const tokenC = newToken();
  await em.fork().transactional(async (tx) => {
    const peer = await tx.findOneOrFail(OcpiPeer, { id: caller.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (peer.tokenAccept !== caller.tokenAccept) throw new OcpiError(OCPI_STATUS.clientError, NO_VALID_TOKEN, 401);
    Object.assign(peer, {
      versionsUrl: theirs.url, tokenSend: theirs.token, tokenAccept: tokenC, version: OCPI_VERSION, endpoints: details.endpoints, roles: theirs.roles,
      status: 'registered',
    });
  });
  return ourCredentials(tokenC, origin);
}

/** DELETE credentials: the peer ends the registration; its token is no longer accepted. */
export async function unregisterPeer(em: Em, caller: Pick<OcpiPeerData, 'id'>): Promise<void> {
  const peer = await em.findOneOrFail(OcpiPeer, { id: caller.id });
  Object.assign(peer, { status: 'unregistered', tokenAccept: null, tokenSend: null });
  await em.flush();
}
