// The roaming command reads (REST /msp-roaming-command): plain data, the caller's administrations
// only (the em's administration filter), seek paging by id (creation).
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { RoamingCommand, type CommandState } from './roaming-command.entity.ts';

export type RoamingCommandData = Data<RoamingCommand>;

export interface RoamingCommandFilter {
  state?: CommandState;
  roamingConnectionId?: string;
}

const commands = (em: Em, where: FilterQuery<RoamingCommand> = {}) => new SeekList<RoamingCommandData>(em, {
  entity: RoamingCommand, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as RoamingCommandData,
});

export function roamingCommandList(em: Em, filter: RoamingCommandFilter = {}): SeekList<RoamingCommandData> {
  return commands(em, {
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.roamingConnectionId ? { roamingConnectionId: filter.roamingConnectionId } : {}),
  });
}

/** A command by id, or 400 not_found. */
export async function getRoamingCommand(em: Em, id: string): Promise<RoamingCommandData> {
  const [command] = isUuid(id) ? await commands(em, { id }).all() : [];
  if (!command) throw new NotFoundError('roaming command');
  return command;
}

/** The data of a command a write stored (its connection id as stored: plainData leaves a key-mapped reference out). */
export function roamingCommandData(command: RoamingCommand): RoamingCommandData {
  return Object.assign(plainData(command), { roamingConnectionId: command.roamingConnectionId });
}
