// Reads of the start and stop commands sent to CPOs (REST /msp-roaming-command), as plain data:
// seek-paged by id (creation) under the em's administration scope, one by id, and a command a
// service stored or changed.
import type { Em } from '../platform/orm.ts';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Data } from '../platform/plain-data.ts';
import { readRow, rowData, type Row } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { RoamingCommand, type CommandState } from './roaming-command.entity.ts';

export type RoamingCommandData = Data<RoamingCommand>;

/** A command (a row of the query builder, or an entity a service stored or changed) as plain data. */
export function roamingCommandData(em: Em, source: Row | RoamingCommand): RoamingCommandData {
  return rowData(em, RoamingCommand, source);
}

export function roamingCommandList(em: Em, filter: { state?: CommandState; roamingConnectionId?: string } = {}): SeekList<RoamingCommandData> {
  const where = { ...(filter.state ? { state: filter.state } : {}), ...(filter.roamingConnectionId ? { roamingConnectionId: filter.roamingConnectionId } : {}) };
  return new SeekList<RoamingCommandData>(em, { entity: RoamingCommand, where, map: (row) => roamingCommandData(em, row) });
}

export async function getRoamingCommand(em: Em, id: string): Promise<RoamingCommandData> {
  const command = isUuid(id) ? await readRow(em, { entity: RoamingCommand, map: (row) => roamingCommandData(em, row) }, { id }) : null;
  if (!command) throw new NotFoundError('roaming command');
  return command;
}
