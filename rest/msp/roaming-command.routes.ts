// /msp-roaming-command: start and stop commands to a CPO over OCPI (src/ocpi/send-command.service.ts).
// The answer is the command as stored after the CPO's synchronous answer; its final state comes with
// the CPO's result (or the timeout): GET /msp-roaming-command/{id}.
import * as yup from 'yup';
import { iso, oneOf, text, uuid } from '../../src/platform/input-schemas.ts';
import { COMMAND_STATES, COMMAND_TYPES } from '../../src/ocpi/roaming-command.entity.ts';
import { getRoamingCommand, roamingCommandList, type RoamingCommandData } from '../../src/ocpi/roaming-command.queries.ts';
import { startSession, stopSession } from '../../src/ocpi/send-command.service.ts';
import { originOf } from '../ocpi/ocpi-router.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t } from '../rails/shape.ts';
import { validate } from '../../src/platform/input-validation.ts';

const TAG = 'MSP roaming commands';

/** The CPO party a command addresses (`NL*CPO`; the service checks it is one of the connection's). */
const cpoId = () => text(16).min(1);

export const roamingCommandShape = representation('RoamingCommand', {
  id: t.string(),
  type: t.enum(COMMAND_TYPES),
  state: t.enum(COMMAND_STATES),
  roaming_connection_id: t.string(),
  location_id: t.nullable(t.string()),
  evse_uid: t.nullable(t.string()),
  connector_id: t.nullable(t.string()),
  evco_id: t.nullable(t.string()),
  session_id: t.nullable(t.string()),
  response: t.nullable(t.string('The CPO\'s answer (OCPI CommandResponseType).')),
  result: t.nullable(t.string('The CPO\'s result (OCPI CommandResultType).')),
  message: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

function serialize(c: RoamingCommandData) {
  return {
    id: c.id, type: c.type, state: c.state, roaming_connection_id: c.roamingConnectionId, location_id: c.locationId ?? null, evse_uid: c.evseUid ?? null,
    connector_id: c.connectorId ?? null, evco_id: c.evcoId ?? null, session_id: c.sessionId ?? null, response: c.response?.result ?? null,
    result: c.result?.result ?? null, message: c.message ?? null, created_at: iso(c.createdAt), updated_at: iso(c.updatedAt),
  };
}

const startFields = {
  roaming_connection_id: uuid().defined('${path} is required'),
  location_id: text(36).min(1).defined('${path} is required'),
  evse_uid: text(36),
  connector_id: text(36).min(1).defined('${path} is required'),
  evco_id: text(64).min(1).defined('${path} is required'),
  cpo_id: cpoId(),
};
const stopFields = { roaming_connection_id: uuid(), session_id: text(36).min(1).defined('${path} is required'), cpo_id: cpoId() };
type Start = { roaming_connection_id: string; location_id: string; evse_uid?: string; connector_id: string; evco_id: string; cpo_id?: string };
type Stop = { roaming_connection_id?: string; session_id: string; cpo_id?: string };

const start = (em: Parameters<typeof startSession>[0], body: Start, origin: string) => startSession(em, {
  roamingConnectionId: body.roaming_connection_id, locationId: body.location_id, evseUid: body.evse_uid || undefined, connectorId: body.connector_id, evcoId: body.evco_id,
  cpoId: body.cpo_id || undefined,
}, origin);
const stop = (em: Parameters<typeof stopSession>[0], body: Stop, origin: string) => stopSession(em, {
  roamingConnectionId: body.roaming_connection_id || undefined, sessionId: body.session_id, cpoId: body.cpo_id || undefined,
}, origin);

export const roamingCommandRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-roaming-command', tag: TAG, summary: 'List roaming commands', paged: true, response: roamingCommandShape,
    description: 'Ordered by id (creation). Filters: state, roaming_connection_id.',
    query: yup.object({ state: oneOf(COMMAND_STATES), roaming_connection_id: uuid() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: roamingCommandList(em, { state: query.state, roamingConnectionId: query.roaming_connection_id }), rawQuery, path: '/main/v1/msp-roaming-command', serialize,
    }),
  }),
  defineRoute({
    method: 'post', path: '/msp-roaming-command', tag: TAG, graphql: 'sendRoamingCommand', summary: 'Send a roaming command', response: roamingCommandShape,
    description: 'type start_session takes the members of /msp-roaming-command/start-session, stop_session those of /stop-session.',
    body: yup.object({
      type: oneOf(COMMAND_TYPES).defined('${path} is required'),
      roaming_connection_id: uuid(), location_id: text(36), evse_uid: text(36), connector_id: text(36), evco_id: text(64), session_id: text(36), cpo_id: cpoId(),
    }),
    handler: async ({ em, body, ctx }) => {
      // The members the type's own endpoint requires, checked by that endpoint's schema.
      validate(yup.object(body.type === 'start_session' ? startFields : stopFields), body);
      return serialize(body.type === 'start_session'
        ? await start(em, body as Start, originOf(ctx))
        : await stop(em, body as Stop, originOf(ctx)));
    },
  }),
  defineRoute({
    method: 'post', path: '/msp-roaming-command/start-session', tag: TAG, summary: 'Start a session at a CPO', response: roamingCommandShape,
    graphql: 'startRoamingSession',
    description: 'cpo_id names the CPO party to address; required when the connection speaks for several (a hub), else its one party. '
      + 'A token that cannot be an OCPI Token (a uid longer than 36 characters) is refused at evco_id, and so is a token our authorization '
      + 'refuses now (not linked to a valid subscription, token or customer blocked: invalid_input, the reason in the message): '
      + 'a StartSession authorizes the token at the CPO.',
    body: yup.object(startFields),
    handler: async ({ em, body, ctx }) => serialize(await start(em, body, originOf(ctx))),
  }),
  defineRoute({
    method: 'post', path: '/msp-roaming-command/stop-session', tag: TAG, summary: 'Stop a session at a CPO', response: roamingCommandShape,
    graphql: 'stopRoamingSession',
    description: 'session_id is the CPO\'s session id; roaming_connection_id may be left out when one CPO reported that session over OCPI, '
      + 'cpo_id when one party did (the stop goes to the party that reported the session).',
    body: yup.object(stopFields),
    handler: async ({ em, body, ctx }) => serialize(await stop(em, body, originOf(ctx))),
  }),
  defineRoute({
    method: 'get', path: '/msp-roaming-command/:id', tag: TAG, summary: 'Get a roaming command', response: roamingCommandShape,
    handler: async ({ em, params }) => serialize(await getRoamingCommand(em, params.id)),
  }),
];
