// GraphQL twins of the roaming commands (REST /msp-roaming-command): start and stop at a real test
// CPO through src/ocpi/send-command.service.ts, the command as REST shows it, our response_url
// built from the origin the caller reached; bad input at its place below input, nothing sent.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, insertToken, insertTokenLink, insertTokenSubscription } from '../helpers/factories.ts';
import type { CpoPeer } from '../ocpi/cpo-peer.ts';
import { registeredCpo } from '../ocpi/ocpi-app.ts';
import { data, failure as failureOf, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
let cpo: CpoPeer;
let connectionId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  ({ cpo, connectionId } = await registeredCpo(app));
});
test.after.always(async () => { await cpo?.close(); await app?.close(); });

const COMMAND = 'databaseId type state roamingConnectionId roamingConnection { databaseId } locationId evseUid connectorId evcoId sessionId response result message createdAt updatedAt';
const START = `mutation ($i: StartRoamingSessionInput!) { startRoamingSession(input: $i) { ${COMMAND} } }`;
const STOP = `mutation ($i: StopRoamingSessionInput!) { stopRoamingSession(input: $i) { ${COMMAND} } }`;
const SEND = `mutation ($i: RoamingCommandInput!) { sendRoamingCommand(input: $i) { ${COMMAND} } }`;

/** A command as GraphQL answers it, from REST's representation. */
const fromRest = (c: any) => ({
  databaseId: c.id, type: c.type.toUpperCase(), state: c.state.toUpperCase(), roamingConnectionId: c.roaming_connection_id,
  roamingConnection: { databaseId: c.roaming_connection_id }, locationId: c.location_id, evseUid: c.evse_uid, connectorId: c.connector_id,
  evcoId: c.evco_id, sessionId: c.session_id, response: c.response, result: c.result, message: c.message, createdAt: c.created_at, updatedAt: c.updated_at,
});

/** A token our authorization lets start now (linked to a valid subscription). */
async function authorizedToken() {
  const subscription = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id);
  return token;
}

// Serial: the test CPO's behaviour is shared.
test.serial('startRoamingSession sends START_SESSION like POST /msp-roaming-command/start-session, with our response_url', async (t) => {
  const evcoId = (await authorizedToken()).evcoId;
  cpo.commandBehaviour = 'reject';
  const before = cpo.received.length;
  const { startRoamingSession: command } = await data(app, START, { i: {
    roamingConnectionId: connectionId, locationId: 'LOC1', evseUid: 'EVSE1', connectorId: '1', evcoId: evcoId.toLowerCase(),
  } });
  t.like(command, { type: 'START_SESSION', state: 'REJECTED', evcoId, response: 'REJECTED', message: 'EVSE blocked' });
  t.deepEqual(command, fromRest(await restBody(app, `/msp-roaming-command/${command.databaseId}`)));
  const sent = cpo.received.slice(before).find((x) => x.path.endsWith('/START_SESSION'))!.body as { token: { contract_id: string }; response_url: string };
  t.is(sent.token.contract_id, evcoId);
  t.is(sent.response_url, `${app.url}/ocpi/2.2.1/emsp/commands/START_SESSION/${command.databaseId}`);

  const viaRest = await app.request('POST', '/main/v1/msp-roaming-command/start-session', {
    body: { roaming_connection_id: connectionId, location_id: 'LOC1', evse_uid: 'EVSE1', connector_id: '1', evco_id: evcoId },
  });
  const { databaseId: _id, createdAt: _c, updatedAt: _u, ...same } = fromRest(viaRest.body);
  t.like(command, same);

  const { roamingCommands } = await data(app, 'query ($c: ID) { roamingCommands(roamingConnectionId: $c, state: REJECTED) { edges { node { databaseId } } } }', { c: connectionId });
  t.deepEqual(roamingCommands.edges.map((e: any) => e.node.databaseId).slice(-2), [command.databaseId, viaRest.body.id]);
});

test.serial('stopRoamingSession and sendRoamingCommand send STOP_SESSION like their REST twins', async (t) => {
  cpo.commandBehaviour = 'reject';
  const { stopRoamingSession: stopped } = await data(app, STOP, { i: { roamingConnectionId: connectionId, sessionId: 'SES-GQL-1' } });
  t.like(stopped, { type: 'STOP_SESSION', state: 'REJECTED', sessionId: 'SES-GQL-1', roamingConnectionId: connectionId });
  t.deepEqual(stopped, fromRest(await restBody(app, `/msp-roaming-command/${stopped.databaseId}`)));

  const { sendRoamingCommand: sent } = await data(app, SEND, { i: { type: 'STOP_SESSION', roamingConnectionId: connectionId, sessionId: 'SES-GQL-2' } });
  const viaRest = await app.request('POST', '/main/v1/msp-roaming-command', { body: { type: 'stop_session', roaming_connection_id: connectionId, session_id: 'SES-GQL-2' } });
  const { databaseId: _id, createdAt: _c, updatedAt: _u, ...same } = fromRest(viaRest.body);
  t.like(sent, same);
  t.deepEqual((await data(app, 'query ($id: ID!) { roamingCommand(id: $id) { databaseId } }', { id: sent.databaseId })).roamingCommand, { databaseId: sent.databaseId });
});

test.serial('bad input is refused at its place below input and sends nothing', async (t) => {
  const evcoId = (await authorizedToken()).evcoId;
  const before = cpo.received.length;
  const count = async () => (await restBody(app, '/msp-roaming-command?page_size=1000')).items.length;
  const commands = await count();
  const failure = (query: string, i: Record<string, unknown>) => failureOf(app, query, { i });
  const start = { roamingConnectionId: connectionId, locationId: 'LOC1', connectorId: '1', evcoId };
  t.like(await failure(START, { ...start, evcoId: 'NL-GQL-999999999' }), { code: 'not_found', param: '$.input.evcoId', data: { startRoamingSession: null } });
  // A token our authorization refuses (never linked) is not started: a StartSession authorizes it at the CPO.
  const unlinked = (await insertToken(app, adminId)).evcoId;
  t.like(await failure(START, { ...start, evcoId: unlinked }), { code: 'invalid_input', param: '$.input.evcoId', data: { startRoamingSession: null } });
  t.like(await failure(SEND, { type: 'START_SESSION', roamingConnectionId: connectionId, locationId: 'LOC1', connectorId: '1', evcoId: unlinked }),
    { code: 'invalid_input', param: '$.input.evcoId', data: { sendRoamingCommand: null } });
  t.like(await failure(START, { ...start, locationId: 'L'.repeat(37) }), { code: 'validation_failed', param: '$.input.locationId' });
  t.like(await failure(START, { ...start, connectorId: '' }), { code: 'validation_failed', param: '$.input.connectorId' });
  t.like(await failure(START, { ...start, roamingConnectionId: 'not-a-uuid' }), { code: 'validation_failed', param: '$.input.roamingConnectionId' });
  t.like(await failure(START, { ...start, roamingConnectionId: '00000000-0000-7000-8000-000000000000' }), { code: 'not_found', param: '$.input.roamingConnectionId' });
  t.like(await failure(STOP, { sessionId: 'SES-NOBODY-REPORTED' }), { code: 'invalid_input', param: '$.input.roamingConnectionId' });
  t.like(await failure(SEND, { type: 'START_SESSION', roamingConnectionId: connectionId, locationId: 'LOC1', connectorId: '1' }),
    { code: 'validation_failed', param: '$.input.evcoId', data: { sendRoamingCommand: null } });
  t.like(await failure(SEND, { type: 'STOP_SESSION', roamingConnectionId: connectionId }), { code: 'validation_failed', param: '$.input.sessionId' });
  t.is(cpo.received.length, before);
  t.is(await count(), commands);
});
