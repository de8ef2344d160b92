// The job that times out a command whose CPO never sent its result: added with the command, runs
// once its deadline passed (run by the worker, src/worker/worker.ts).
import type { Em } from '../platform/orm.ts';

export const COMMAND_TIMEOUT = 'ocpi_command_timeout';

export function isCommandTimeoutJob(payload: unknown): payload is { command_id: string } {
  return typeof payload === 'object' && payload !== null && typeof (payload as { command_id?: unknown }).command_id === 'string';
}

/** A command still waiting for its result becomes timed_out; a command with its result stays. */
export async function timeOutCommand(em: Em, commandId: string): Promise<void> {
  await em.execute(`update msp_roaming_command set state = 'timed_out', message = 'no result from the CPO in time', updated_at = now()
    where id = ? and state = 'requested'`, [commandId]);
}
