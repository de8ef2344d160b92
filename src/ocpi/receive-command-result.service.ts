// The CPO's asynchronous CommandResult, POSTed to the response_url of a command: a command still
// waiting becomes accepted, rejected or failed; a result after the timeout is kept but the state stays.
// A command takes one result, the first (under the command's row lock, so also of two sent at once):
// the same result again is answered OK and changes nothing, another one is refused (2001).
import { LockMode } from '@mikro-orm/core';
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

/** A result as compared: its type and messages in order (the schema allows no other member). */
const contentOf = (result: OcpiCommandResult) => JSON.stringify([result.result, (result.message ?? []).map((m) => [m.language, m.text])]);

export async function receiveCommandResult(em: Em, peer: Pick<OcpiPeerData, 'roamingConnectionId'>, type: string, commandId: string, raw: unknown): Promise<void> {
  const result = acceptOcpi<OcpiCommandResult>('commandResult', raw);
  const unknown = () => new OcpiError(OCPI_STATUS.clientError, 'unknown command', 404);
  // Our command ids are UUIDs: anything else (36 zeros, 36 dashes) is unknown without a query.
  if (!isUuid(commandId)) throw unknown();
  await em.transactional(async (tx) => {
    const command = await tx.findOne(RoamingCommand, { id: commandId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!command || command.roamingConnectionId !== peer.roamingConnectionId || `${command.type}`.toUpperCase() !== type) throw unknown();
    if (command.result) {
      if (contentOf(command.result) === contentOf(result)) return;
      throw new OcpiError(OCPI_STATUS.invalidParameters, `the command has its result already (${command.result.result}): a command takes one result`, 400);
    }
    command.result = result;
    if (command.state === 'requested') {
      command.state = STATE_OF[result.result];
      command.message = result.message?.[0]?.text ?? result.result;
    }
  });
}
