// Start and stop commands to a CPO (OCPI commands module, eMSP as sender): the command is stored
// as requested together with its timeout job, then sent as StartSession/StopSession to the CPO's
// commands endpoint with our response_url; the CPO's answer (CommandResponse) rejects it or leaves
// it waiting for the CommandResult (receive-command-result.service.ts) or the timeout. A command
// addresses one party of the connection (OCPI-to-*): a stop the party that reported the session, a
// start the connection's one CPO party or the one the request names (cpo_id). The message is checked
// against its schema before anything is stored: what OCPI cannot carry is the caller's 400. A start is our authorization
// of the token at the CPO: a token our authorization (authorize-token.service.ts) refuses now is the caller's 400.
import { LockMode } from '@mikro-orm/core';
import { authorizeLoadedToken, refusalText } from '../msp/authorize-token.service.ts';
import { findTokenByEvcoId } from '../msp/token-lookup.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { uuidv7 } from '../platform/ids.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import type { Em } from '../platform/orm.ts';
import { normalizePartyId } from '../platform/party-id.ts';
import { COMMAND_TIMEOUT } from './command-timeout.ts';
import { OcpiError } from './errors.ts';
import { callPeer } from './ocpi-client.ts';
import { OcpiPeer, peerEndpoint, speaksFor } from './ocpi-peer.entity.ts';
import { ocpiSettings, ourUrls } from './ocpi-settings.ts';
import { RoamingCommand } from './roaming-command.entity.ts';
import { roamingCommandData, type RoamingCommandData } from './roaming-command.queries.ts';
import { OcpiSession } from './ocpi-session.entity.ts';
import type { OcpiCommandResponse } from './schemas/commands.ts';
import { ocpiTokensOf } from './token-of.ts';
import { ocpiProblem } from './validate.ts';
import { callerScope } from '../access/admin-scope.ts';

const seesEveryAdministration = (em: Em) => callerScope(em).all;

/** cpoId: the CPO party to address (`NL*CPO`, `NL-CPO`, `NLCPO`); needed when the connection speaks for several. */
export interface StartSessionInput { roamingConnectionId: string; locationId: string; evseUid?: string; connectorId: string; evcoId: string; cpoId?: string }
/**
 * Without roamingConnectionId: the connection whose CPO reported that session (OCPI Sessions). cpoId: the party that
 * reported it, when several parties did (a hub relays several); a session no CPO reported goes to it.
 */
export interface StopSessionInput { roamingConnectionId?: string; sessionId: string; cpoId?: string }

interface Party { countryCode: string; partyId: string }
const shown = (party: Party) => `${party.countryCode}*${party.partyId}`;

async function commandsUrl(em: Em, roamingConnectionId: string): Promise<{ peer: OcpiPeer; url: string }> {
  const peer = await em.findOne(OcpiPeer, { roamingConnectionId });
  if (!peer || peer.status !== 'registered') throw new NotFoundError('registered OCPI connection', { path: ['roaming_connection_id'] });
  const url = peerEndpoint(peer, 'commands', 'RECEIVER');
  if (!url) throw new DomainError('invalid_input', 'the CPO offers no commands endpoint', { path: ['roaming_connection_id'] });
  return { peer, url };
}

/** The party a request names (cpo_id), or undefined; one that is no party id is 400 at $.cpo_id. */
function namedParty(cpoId: string | undefined): Party | undefined {
  if (cpoId === undefined) return undefined;
  const id = normalizePartyId(cpoId);
  if (!id) throw new InvalidInputError(`${cpoId} is not a CPO party id (a country code and three characters, e.g. NL*CPO)`, { path: ['cpo_id'] });
  return { countryCode: id.slice(0, 2), partyId: id.slice(2) };
}

/**
 * Whom a command that no reported session decides addresses: the party named, which must be one of the connection's
 * (its credentials roles), else the connection's one CPO party (any role when none is a CPO's). A connection speaking for
 * several (a hub) needs the party named: the location or EVSE alone does not tell whose it is (their ids are unique per
 * party only). A peer without roles: none (no routing headers).
 */
function addressedParty(peer: OcpiPeer, named: Party | undefined): Party | undefined {
  const parties = (roles: OcpiPeer['roles']) => [...new Map(roles.map((r) => {
    const party = { countryCode: r.country_code.toUpperCase(), partyId: r.party_id.toUpperCase() };
    return [shown(party), party] as const;
  })).values()];
  const all = parties(peer.roles);
  if (named) {
    if (!speaksFor(peer, named.countryCode, named.partyId)) {
      throw new InvalidInputError(`${shown(named)} is not a party of this connection (${all.map(shown).join(', ') || 'it names none'})`, { path: ['cpo_id'] });
    }
    return named;
  }
  const cpos = parties(peer.roles.filter((r) => r.role === 'CPO'));
  const candidates = cpos.length ? cpos : all;
  if (candidates.length > 1) {
    throw new InvalidInputError(`the connection speaks for several CPO parties (${candidates.map(shown).join(', ')}): name the one to address in cpo_id`, { path: ['cpo_id'] });
  }
  return candidates[0];
}

/** The request member an outgoing message's member comes from. */
const PARAM_OF: Record<string, FieldPath> = {
  token: ['evco_id'], location_id: ['location_id'], evse_uid: ['evse_uid'], connector_id: ['connector_id'], session_id: ['session_id'],
};

/**
 * The message as OCPI defines it, checked before anything is stored: a member it cannot carry (a token whose uid is
 * longer than an OCPI Token's) is 400 at the request's member, and no command is left behind.
 */
function checkOutgoing(schema: 'startSession' | 'stopSession', message: object): void {
  const problem = ocpiProblem(schema, message);
  if (!problem) return;
  const member = problem.pointer.split('/')[1] ?? '';
  const what = member === 'token' ? 'the token cannot be an OCPI Token' : 'the command cannot be sent over OCPI';
  throw new InvalidInputError(`${what}: ${problem.failure}`, PARAM_OF[member] ? { path: PARAM_OF[member] } : {});
}

async function store(em: Em, fields: Partial<RoamingCommand> & Pick<RoamingCommand, 'id' | 'roamingConnectionId' | 'type'>): Promise<void> {
  await em.transactional(async (tx) => {
    tx.create(RoamingCommand, {
      state: 'requested', locationId: null, evseUid: null, connectorId: null, evcoId: null, sessionId: null, response: null, result: null, message: null, ...fields,
    });
    await tx.flush();
    const runAt = new Date(Date.now() + ocpiSettings().commandTimeoutSeconds * 1000);
    await addFollowUpJob(tx, COMMAND_TIMEOUT, { command_id: fields.id }, { runAt });
  });
}

interface Outgoing { peer: OcpiPeer; url: string; schema: 'startSession' | 'stopSession'; message: object; to: Party | undefined }

/**
 * Sends the stored command and writes the CPO's answer on the command as it is then, under its row lock (as a
 * CommandResult is taken): a result the CPO posted before its answer reached us, or the timeout, came first and its
 * state stays; the answer is kept beside it.
 */
async function send(em: Em, commandId: string, out: Outgoing): Promise<RoamingCommandData> {
  let answer: { response: OcpiCommandResponse } | { failure: string };
  try {
    answer = {
      response: await callPeer<OcpiCommandResponse>({
        method: 'POST', url: out.url, token: out.peer.tokenSend!, body: { schema: out.schema, value: out.message }, answer: 'commandResponse',
        to: out.to, from: { countryCode: ocpiSettings().countryCode, partyId: ocpiSettings().partyId },
      }),
    };
  } catch (error) {
    if (!(error instanceof OcpiError)) throw error;
    answer = { failure: error.message };
  }
  return em.transactional(async (tx) => {
    const command = await tx.findOneOrFail(RoamingCommand, { id: commandId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: false });
    if ('response' in answer) {
      command.response = answer.response;
      if (answer.response.result !== 'ACCEPTED' && command.state === 'requested') {
        Object.assign(command, { state: 'rejected', message: answer.response.message?.[0]?.text ?? answer.response.result });
      }
    } else if (command.state === 'requested') {
      Object.assign(command, { state: 'failed', message: answer.failure });
    }
    await tx.flush();
    return roamingCommandData(tx, command);
  });
}

export async function startSession(em: Em, input: StartSessionInput, origin: string): Promise<RoamingCommandData> {
  const named = namedParty(input.cpoId);
  const { peer, url } = await commandsUrl(em, input.roamingConnectionId);
  const token = await findTokenByEvcoId(em, input.evcoId);
  if (!token) throw new NotFoundError('token', { path: ['evco_id'] });
  // OCPI 2.2.1: the token of a StartSession is authorized by the eMSP, so the CPO starts charging on it. Only a token our
  // one authorization rule lets start now is sent; a refused one is the caller's 400 and nothing is stored.
  const authorization = await authorizeLoadedToken(em, token);
  if (!authorization.allowed) throw new InvalidInputError(`the token may not start a session now: ${refusalText(authorization)}`, { path: ['evco_id'] });
  const to = addressedParty(peer, named);
  const id = uuidv7();
  const message = {
    response_url: ourUrls(origin).module(`emsp/commands/START_SESSION/${id}`), token: (await ocpiTokensOf(em, [token]))[0], location_id: input.locationId,
    ...(input.evseUid ? { evse_uid: input.evseUid } : {}), connector_id: input.connectorId,
  };
  checkOutgoing('startSession', message);
  await store(em, {
    id, roamingConnectionId: input.roamingConnectionId, type: 'start_session', locationId: input.locationId, evseUid: input.evseUid ?? null,
    connectorId: input.connectorId, evcoId: token.evcoId, admin: token.currentAdmin,
  });
  return send(em, id, { peer, url: `${url}/START_SESSION`, schema: 'startSession', message, to });
}

/**
 * A stop names the CPO's session. The OCPI Session the CPO reported decides the connection (when
 * not named), the party addressed and the command's administration; a credential scoped to administrations may only
 * stop a session of theirs, an instance-wide one also a session no CPO reported (addressed as a start is).
 */
export async function stopSession(em: Em, input: StopSessionInput, origin: string): Promise<RoamingCommandData> {
  const named = namedParty(input.cpoId);
  const where = {
    sessionId: input.sessionId, ...(input.roamingConnectionId ? { roamingConnectionId: input.roamingConnectionId } : {}),
    ...(named ? { countryCode: named.countryCode, partyId: named.partyId } : {}),
  };
  const reported = await em.find(OcpiSession, where, { limit: 2, orderBy: { id: 'asc' } });
  if (reported.length > 1) {
    if (!input.roamingConnectionId && reported[0].roamingConnectionId !== reported[1].roamingConnectionId) {
      throw new DomainError('invalid_input', 'several connections reported this session: name roaming_connection_id', { path: ['roaming_connection_id'] });
    }
    throw new InvalidInputError(`several CPO parties reported this session (${reported.map((r) => shown(r)).join(', ')}): name the one to address in cpo_id`, { path: ['cpo_id'] });
  }
  const [session] = reported;
  if (!session && (!input.roamingConnectionId || !seesEveryAdministration(em))) {
    throw input.roamingConnectionId ? new NotFoundError('OCPI session', { path: ['session_id'] })
      : new DomainError('invalid_input', 'no CPO reported this session: name roaming_connection_id', { path: ['roaming_connection_id'] });
  }
  const roamingConnectionId = session?.roamingConnectionId ?? input.roamingConnectionId!;
  const { peer, url } = await commandsUrl(em, roamingConnectionId);
  const to = session ? { countryCode: session.countryCode, partyId: session.partyId } : addressedParty(peer, named);
  const id = uuidv7();
  const message = { response_url: ourUrls(origin).module(`emsp/commands/STOP_SESSION/${id}`), session_id: input.sessionId };
  checkOutgoing('stopSession', message);
  await store(em, { id, roamingConnectionId, type: 'stop_session', sessionId: input.sessionId, admin: session?.admin ?? null });
  return send(em, id, { peer, url: `${url}/STOP_SESSION`, schema: 'stopSession', message, to });
}
