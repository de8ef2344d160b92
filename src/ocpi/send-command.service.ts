// Start and stop commands to a CPO (OCPI commands module, eMSP as sender): the command is stored
// as requested together with its timeout job, then sent as StartSession/StopSession to the CPO's
// commands endpoint with our response_url; the CPO's answer (CommandResponse) rejects it or leaves
// it waiting for the CommandResult (receive-command-result.service.ts) or the timeout.
import { findTokenByEvcoId } from '../msp/token-lookup.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import type { Em } from '../platform/orm.ts';
import { COMMAND_TIMEOUT } from './command-timeout.ts';
import { OcpiError } from './errors.ts';
import { callPeer } from './ocpi-client.ts';
import { OcpiPeer, peerEndpoint } from './ocpi-peer.entity.ts';
import { ocpiSettings, ourUrls } from './ocpi-settings.ts';
import { RoamingCommand } from './roaming-command.entity.ts';
import { roamingCommandData, type RoamingCommandData } from './roaming-command.queries.ts';
import { OcpiSession } from './ocpi-session.entity.ts';
import type { OcpiCommandResponse } from './schemas/commands.ts';
import { ocpiTokensOf } from './token-of.ts';
import { callerScope } from '../access/admin-scope.ts';

const seesEveryAdministration = (em: Em) => callerScope(em).all;

export interface StartSessionInput { roamingConnectionId: string; locationId: string; evseUid?: string; connectorId: string; evcoId: string }
/** Without roamingConnectionId: the connection whose CPO reported that session (OCPI Sessions). */
export interface StopSessionInput { roamingConnectionId?: string; sessionId: string }

async function commandsUrl(em: Em, roamingConnectionId: string): Promise<{ peer: OcpiPeer; url: string }> {
  const peer = await em.findOne(OcpiPeer, { roamingConnectionId });
  if (!peer || peer.status !== 'registered') throw new NotFoundError('registered OCPI connection', { path: ['roaming_connection_id'] });
  const url = peerEndpoint(peer, 'commands', 'RECEIVER');
  if (!url) throw new DomainError('invalid_input', 'the CPO offers no commands endpoint', { path: ['roaming_connection_id'] });
  return { peer, url };
}

async function store(em: Em, fields: Partial<RoamingCommand> & Pick<RoamingCommand, 'roamingConnectionId' | 'type'>): Promise<RoamingCommand> {
  return em.transactional(async (tx) => {
    const command = tx.create(RoamingCommand, {
      state: 'requested', locationId: null, evseUid: null, connectorId: null, evcoId: null, sessionId: null, response: null, result: null, message: null, ...fields,
    });
    await tx.flush();
    const runAt = new Date(Date.now() + ocpiSettings().commandTimeoutSeconds * 1000);
    await addFollowUpJob(tx, COMMAND_TIMEOUT, { command_id: command.id }, { runAt });
    return command;
  });
}

async function send(em: Em, command: RoamingCommand, peer: OcpiPeer, url: string, schema: 'startSession' | 'stopSession', body: object): Promise<RoamingCommandData> {
  try {
    const response = await callPeer<OcpiCommandResponse>({
      method: 'POST', url, token: peer.tokenSend!, body: { schema, value: body }, answer: 'commandResponse',
      to: peer.roles[0] ? { countryCode: peer.roles[0].country_code, partyId: peer.roles[0].party_id } : undefined,
      from: { countryCode: ocpiSettings().countryCode, partyId: ocpiSettings().partyId },
    });
    command.response = response;
    if (response.result !== 'ACCEPTED') {
      command.state = command.state === 'requested' ? 'rejected' : command.state;
      command.message = response.message?.[0]?.text ?? response.result;
    }
  } catch (error) {
    if (!(error instanceof OcpiError)) throw error;
    if (command.state === 'requested') Object.assign(command, { state: 'failed', message: error.message });
  }
  await em.flush();
  return roamingCommandData(em, command);
}

export async function startSession(em: Em, input: StartSessionInput, origin: string): Promise<RoamingCommandData> {
  const { peer, url } = await commandsUrl(em, input.roamingConnectionId);
  const token = await findTokenByEvcoId(em, input.evcoId);
  if (!token) throw new NotFoundError('token', { path: ['evco_id'] });
  const command = await store(em, {
    roamingConnectionId: input.roamingConnectionId, type: 'start_session', locationId: input.locationId, evseUid: input.evseUid ?? null,
    connectorId: input.connectorId, evcoId: token.evcoId, admin: token.currentAdmin,
  });
  return roamingCommandData(em, await send(em, command, peer, `${url}/START_SESSION`, 'startSession', {
    response_url: ourUrls(origin).module(`emsp/commands/START_SESSION/${command.id}`), token: (await ocpiTokensOf(em, [token]))[0], location_id: input.locationId,
    ...(input.evseUid ? { evse_uid: input.evseUid } : {}), connector_id: input.connectorId,
  }));
}

/**
 * A stop names the CPO's session. The OCPI Session the CPO reported decides the connection (when
 * not named) and the command's administration; a credential scoped to administrations may only
 * stop a session of theirs, an instance-wide one also a session no CPO reported.
 */
export async function stopSession(em: Em, input: StopSessionInput, origin: string): Promise<RoamingCommandData> {
  const where = { sessionId: input.sessionId, ...(input.roamingConnectionId ? { roamingConnectionId: input.roamingConnectionId } : {}) };
  const reported = await em.find(OcpiSession, where, { limit: 2 });
  if (reported.length > 1 && !input.roamingConnectionId) {
    throw new DomainError('invalid_input', 'several connections reported this session: name roaming_connection_id', { path: ['roaming_connection_id'] });
  }
  const [session] = reported;
  if (!session && (!input.roamingConnectionId || !seesEveryAdministration(em))) {
    throw input.roamingConnectionId ? new NotFoundError('OCPI session', { path: ['session_id'] })
      : new DomainError('invalid_input', 'no CPO reported this session: name roaming_connection_id', { path: ['roaming_connection_id'] });
  }
  const roamingConnectionId = session?.roamingConnectionId ?? input.roamingConnectionId!;
  const { peer, url } = await commandsUrl(em, roamingConnectionId);
  const command = await store(em, { roamingConnectionId, type: 'stop_session', sessionId: input.sessionId, admin: session?.admin ?? null });
  return roamingCommandData(em, await send(em, command, peer, `${url}/STOP_SESSION`, 'stopSession', {
    response_url: ourUrls(origin).module(`emsp/commands/STOP_SESSION/${command.id}`), session_id: input.sessionId,
  }));
}
