// OCPI 2.2.1 commands module: StartSession, StopSession (what the eMSP sends), CommandResponse (the
// CPO's synchronous answer) and CommandResult (its asynchronous callback to response_url).
import { arrayOf, displayText, enumOf, object, str, url } from './common.ts';
import { tokenSchema } from './token.ts';

export const COMMAND_TYPES = ['CANCEL_RESERVATION', 'RESERVE_NOW', 'START_SESSION', 'STOP_SESSION', 'UNLOCK_CONNECTOR'] as const;
export const COMMAND_RESPONSE_TYPES = ['NOT_SUPPORTED', 'REJECTED', 'ACCEPTED', 'UNKNOWN_SESSION'] as const;
export const COMMAND_RESULT_TYPES = [
  'ACCEPTED', 'CANCELED_RESERVATION', 'EVSE_OCCUPIED', 'EVSE_INOPERATIVE', 'FAILED', 'NOT_SUPPORTED', 'REJECTED', 'TIMEOUT', 'UNKNOWN_RESERVATION',
] as const;

export const commandResponseSchema = object({
  result: enumOf(COMMAND_RESPONSE_TYPES), timeout: { type: 'integer', minimum: 0 }, message: arrayOf(displayText),
}, ['result', 'timeout']);

export const commandResultSchema = object({ result: enumOf(COMMAND_RESULT_TYPES), message: arrayOf(displayText) }, ['result']);

export const startSessionSchema = object({
  response_url: url, token: tokenSchema, location_id: str(36), evse_uid: str(36), connector_id: str(36), authorization_reference: str(36),
}, ['response_url', 'token', 'location_id']);

export const stopSessionSchema = object({ response_url: url, session_id: str(36) }, ['response_url', 'session_id']);

export type CommandResponseType = typeof COMMAND_RESPONSE_TYPES[number];
export type CommandResultType = typeof COMMAND_RESULT_TYPES[number];
export interface OcpiCommandResponse { result: CommandResponseType; timeout: number; message?: { language: string; text: string }[] }
export interface OcpiCommandResult { result: CommandResultType; message?: { language: string; text: string }[] }
