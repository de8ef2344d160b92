import { defineEntity, p } from '@mikro-orm/core';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import type { OcpiCommandResponse, OcpiCommandResult } from './schemas/commands.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const COMMAND_TYPES = ['start_session', 'stop_session'] as const;
/**
 * requested: sent, the final result not in yet (the CPO answered ACCEPTED, or not yet);
 * accepted: the CPO's result says it was done; rejected: the CPO refused it (its answer or its
 * result); failed: the CPO could not be reached or its result is FAILED or TIMEOUT; timed_out:
 * no result within SVC_OCPI_COMMAND_TIMEOUT_SECONDS.
 */
export const COMMAND_STATES = ['requested', 'accepted', 'rejected', 'failed', 'timed_out'] as const;
export type CommandState = typeof COMMAND_STATES[number];

/** A start or stop command sent to a CPO over OCPI (interface spec /msp-roaming-command). */
export const RoamingCommandSchema = defineEntity({
  name: 'RoamingCommand',
  tableName: 'msp_roaming_command',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    roamingConnectionId: () => p.manyToOne(RoamingConnection).mapToPk().fieldName('roaming_connection_id').index(),
    /** The administration of the driver's token (null: a stop of a session no administration of the caller's owns, by an instance-wide credential). */
    admin: () => p.manyToOne(Administration).nullable(),
    type: p.enum(COMMAND_TYPES),
    state: p.enum(COMMAND_STATES),
    locationId: p.string().length(36).nullable(),
    evseUid: p.string().length(36).nullable(),
    connectorId: p.string().length(36).nullable(),
    evcoId: p.string().length(64).nullable(),
    /** The CPO's session to stop. */
    sessionId: p.string().length(36).nullable(),
    /** The CPO's synchronous answer. */
    response: p.json<OcpiCommandResponse>().nullable(),
    /** The CPO's asynchronous result. */
    result: p.json<OcpiCommandResult>().nullable(),
    message: p.text().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class RoamingCommand extends RoamingCommandSchema.class {}
RoamingCommandSchema.setClass(RoamingCommand);
recordsEvents<RoamingCommand>(RoamingCommand, 'msp_roaming_command', { adminOf: (c) => c.admin?.id ?? null });
