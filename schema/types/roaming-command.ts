// Start and stop commands to a CPO over OCPI (src/ocpi/send-command.service.ts), REST /msp-roaming-command.
// The answer is the command as stored after the CPO's synchronous answer; its final state comes with
// the CPO's result (or the timeout): roamingCommand(id).
import * as yup from 'yup';
import { COMMAND_STATES, COMMAND_TYPES } from '../../src/ocpi/roaming-command.entity.ts';
import { getRoamingCommand, roamingCommandList, type RoamingCommandData } from '../../src/ocpi/roaming-command.queries.ts';
import { startSession, stopSession } from '../../src/ocpi/send-command.service.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { text, uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Em } from '../../src/platform/orm.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { RoamingConnection } from './roaming-connection.ts';

const RoamingCommandType = enumOf('RoamingCommandType', COMMAND_TYPES, 'What the command asks the CPO.');
const RoamingCommandState = enumOf('RoamingCommandState', COMMAND_STATES,
  'REQUESTED until the CPO\'s result is in; then ACCEPTED, REJECTED, FAILED (CPO unreachable, or its result FAILED or TIMEOUT) or TIMED_OUT.');

export const RoamingCommand = builder.objectRef<RoamingCommandData>('RoamingCommand').implement({
  description: 'A start or stop command sent to a CPO over OCPI (REST: /msp-roaming-command/{id}).',
  isTypeOf: (value) => isDataOf(value, 'RoamingCommand'),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this command in the REST API.' }),
    type: t.field({ type: RoamingCommandType, resolve: (c) => c.type }),
    state: t.field({ type: RoamingCommandState, resolve: (c) => c.state }),
    roamingConnectionId: t.string({ resolve: (c) => c.roamingConnectionId }),
    roamingConnection: t.field({ type: RoamingConnection, nullable: true, resolve: (c) => c.roamingConnectionId }),
    locationId: t.string({ nullable: true, resolve: (c) => c.locationId ?? null }),
    evseUid: t.string({ nullable: true, resolve: (c) => c.evseUid ?? null }),
    connectorId: t.string({ nullable: true, resolve: (c) => c.connectorId ?? null }),
    evcoId: t.string({ nullable: true, resolve: (c) => c.evcoId ?? null }),
    sessionId: t.string({ nullable: true, description: 'The CPO\'s session to stop.', resolve: (c) => c.sessionId ?? null }),
    response: t.string({ nullable: true, description: 'The CPO\'s answer (OCPI CommandResponseType).', resolve: (c) => c.response?.result ?? null }),
    result: t.string({ nullable: true, description: 'The CPO\'s result (OCPI CommandResultType).', resolve: (c) => c.result?.result ?? null }),
    message: t.string({ nullable: true, resolve: (c) => c.message ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (c) => c.updatedAt }),
  }),
});

const RoamingCommandConnection = builder.connectionObject({ type: RoamingCommand, name: 'RoamingCommandConnection' }, { name: 'RoamingCommandEdge' });

const connectionId = (raw: string | number) => idArg(raw, 'RoamingConnection');

builder.queryFields((t) => ({
  roamingCommands: t.connection({
    type: RoamingCommand,
    description: 'Roaming commands by id (creation) (REST: GET /msp-roaming-command).',
    args: {
      state: t.arg({ type: RoamingCommandState }),
      roamingConnectionId: t.arg.id({ description: 'Global ID or REST id of the roaming connection.' }),
    },
    resolve: (_root, args, context) => {
      const filter = { state: args.state ?? undefined, roamingConnectionId: args.roamingConnectionId == null ? undefined : connectionId(args.roamingConnectionId) };
      validate(yup.object({ roamingConnectionId: uuid() }), filter);
      return listConnection<RoamingCommandData>(roamingCommandList(context.em, filter), args);
    },
  }, RoamingCommandConnection),
  roamingCommand: t.field({
    type: RoamingCommand,
    nullable: true,
    description: 'A roaming command; null when there is none the caller may see (REST: GET /msp-roaming-command/{id}).',
    args: { id: t.arg.id({ required: true, description: 'The REST id.' }) },
    resolve: async (_root, args, context) => {
      try {
        return await getRoamingCommand(context.em, String(args.id));
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') return null;
        throw error;
      }
    },
  }),
}));

const CONNECTION = 'Global ID or REST id of a roaming connection registered over OCPI.';
const CPO_PARTY = 'The CPO party to address (NL*CPO), one of the connection\'s; required when it speaks for several (a hub).';

const StartRoamingSessionInput = builder.inputType('StartRoamingSessionInput', {
  fields: (t) => ({
    roamingConnectionId: t.id({ required: true, description: CONNECTION }),
    locationId: t.string({ required: true, description: 'The CPO\'s location id.' }),
    evseUid: t.string({ description: 'The CPO\'s EVSE uid.' }),
    connectorId: t.string({ required: true }),
    evcoId: t.string({ required: true, description: 'The driver\'s token, by its eMA ID.' }),
    cpoId: t.string({ description: CPO_PARTY }),
  }),
});

const StopRoamingSessionInput = builder.inputType('StopRoamingSessionInput', {
  fields: (t) => ({
    roamingConnectionId: t.id({ description: `${CONNECTION} May be left out when one CPO reported the session over OCPI.` }),
    sessionId: t.string({ required: true, description: 'The CPO\'s session id.' }),
    cpoId: t.string({ description: 'The CPO party that reported the session (NL*CPO), when several did; a session no CPO reported goes to it.' }),
  }),
});

const RoamingCommandInput = builder.inputType('RoamingCommandInput', {
  description: 'START_SESSION takes the members of StartRoamingSessionInput, STOP_SESSION those of StopRoamingSessionInput.',
  fields: (t) => ({
    type: t.field({ type: RoamingCommandType, required: true }),
    roamingConnectionId: t.id({ description: CONNECTION }),
    locationId: t.string(),
    evseUid: t.string(),
    connectorId: t.string(),
    evcoId: t.string(),
    sessionId: t.string(),
    cpoId: t.string({ description: CPO_PARTY }),
  }),
});

/** The same rules as the REST bodies of /msp-roaming-command/start-session and /stop-session. */
const startRules = yup.object({
  roamingConnectionId: uuid().defined('${path} is required'),
  locationId: text(36).min(1).defined('${path} is required'),
  evseUid: text(36).nullable(),
  connectorId: text(36).min(1).defined('${path} is required'),
  evcoId: text(64).min(1).defined('${path} is required'),
  cpoId: text(16).min(1).nullable(),
});
const stopRules = yup.object({ roamingConnectionId: uuid().nullable(), sessionId: text(36).min(1).defined('${path} is required'), cpoId: text(16).min(1).nullable() });

interface CommandInput {
  roamingConnectionId?: string | number | null;
  locationId?: string | null;
  evseUid?: string | null;
  connectorId?: string | null;
  evcoId?: string | null;
  sessionId?: string | null;
  cpoId?: string | null;
}

/** The connection's REST id (a global ID decoded); absent stays absent. */
const connectionOf = (input: CommandInput) => (input.roamingConnectionId == null ? undefined : connectionId(input.roamingConnectionId));

function start(em: Em, input: CommandInput, origin: string) {
  const checked = validate(startRules, { ...input, roamingConnectionId: connectionOf(input) });
  return startSession(em, {
    roamingConnectionId: checked.roamingConnectionId, locationId: checked.locationId, evseUid: checked.evseUid || undefined,
    connectorId: checked.connectorId, evcoId: checked.evcoId, cpoId: checked.cpoId || undefined,
  }, origin);
}

function stop(em: Em, input: CommandInput, origin: string) {
  const checked = validate(stopRules, { ...input, roamingConnectionId: connectionOf(input) });
  return stopSession(em, { roamingConnectionId: checked.roamingConnectionId || undefined, sessionId: checked.sessionId, cpoId: checked.cpoId || undefined }, origin);
}

builder.mutationFields((t) => ({
  startRoamingSession: t.field({
    type: RoamingCommand,
    nullable: true,
    description: 'Asks a CPO to start a session for a token (REST: POST /msp-roaming-command/start-session).',
    args: { input: t.arg({ type: StartRoamingSessionInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) => start(em, input, context.origin)),
  }),
  stopRoamingSession: t.field({
    type: RoamingCommand,
    nullable: true,
    description: 'Asks a CPO to stop its session (REST: POST /msp-roaming-command/stop-session).',
    args: { input: t.arg({ type: StopRoamingSessionInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) => stop(em, input, context.origin)),
  }),
  sendRoamingCommand: t.field({
    type: RoamingCommand,
    nullable: true,
    description: 'Sends a start or stop command by its type (REST: POST /msp-roaming-command); startRoamingSession and '
      + 'stopRoamingSession say the same with typed inputs.',
    args: { input: t.arg({ type: RoamingCommandInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) =>
      (input.type === 'start_session' ? start(em, input, context.origin) : stop(em, input, context.origin))),
  }),
}));
