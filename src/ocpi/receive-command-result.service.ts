// The CPO's asynchronous CommandResult, POSTed to the response_url of a command: a command still
// waiting becomes accepted, rejected or failed; a result after the timeout is kept but the state stays.
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import type { OcpiPeerData } from './ocpi-peer.queries.ts';
import { RoamingCommand, type CommandState } from './roaming-command.entity.ts';
import type { CommandResultType, OcpiCommandResult } from './schemas/commands.ts';
import { acceptOcpi } from './validate.ts';

const STATE_OF: Record<CommandResultType, CommandState> = {
  ACCEPTED: 'accepted', CANCELED_RESERVATION: 'accepted', EVSE_OCCUPIED: 'rejected', EVSE_INOPERATIVE: 'rejected', FAILED: 'failed',
  NOT_SUPPORTED: 'rejected', REJECTED: 'rejected', TIMEOUT: 'failed', UNKNOWN_RESERVATION: 'rejected',
};

export async function receiveCommandResult(em: Em, peer: Pick<OcpiPeerData, 'roamingConnectionId'>, type: string, commandId: string, raw: unknown): Promise<void> {
  const result = acceptOcpi<OcpiCommandResult>('commandResult', raw);
  // Our command ids are UUIDs: anything else (36 zeros, 36 dashes) is unknown without a query.
  const command = isUuid(commandId) ? await em.findOne(RoamingCommand, { id: commandId }) : null;
  if (!command || command.roamingConnectionId !== peer.roamingConnectionId || `${command.type}`.toUpperCase() !== type) {
    throw new OcpiError(OCPI_STATUS.clientError, 'unknown command', 404);
  }
  command.result = result;
  if (command.state === 'requested') {
    command.state = STATE_OF[result.result];
    command.message = result.message?.[0]?.text ?? result.result;
  }
  await em.flush();
}
