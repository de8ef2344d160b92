// Calls to a peer's OCPI endpoints: the token header, request ids, the body checked as we send it
// and the answer's envelope and data checked as we accept them (validate.ts). A peer that cannot be
// reached, answers more than MAX_BODY_BYTES or anything but status 1000 is an OcpiError (3001: unable
// to use the client's API).
import { randomUUID } from 'node:crypto';
import { MAX_BODY_BYTES } from '../platform/http/body.ts';
import { boundedAnswerText } from '../platform/http/bounded-answer.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import type { OcpiSchemaName } from './schemas/index.ts';
import type { OcpiEnvelope } from './schemas/envelope.ts';
import { authorizationHeader } from './token-header.ts';
import { acceptOcpi, sendOcpi } from './validate.ts';

export interface OcpiCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  token: string;
  body?: { schema: OcpiSchemaName; value: unknown };
  /** The schema of the answer's data (none: data is not read). */
  answer?: OcpiSchemaName;
  /** Who we address (OCPI routing headers). */
  to?: { countryCode: string; partyId: string };
  from?: { countryCode: string; partyId: string };
}

export async function callPeer<T>(call: OcpiCall): Promise<T> {
  const headers: Record<string, string> = {
    authorization: authorizationHeader(call.token), 'x-request-id': randomUUID(), 'x-correlation-id': randomUUID(),
  };
  if (call.from) Object.assign(headers, { 'ocpi-from-country-code': call.from.countryCode, 'ocpi-from-party-id': call.from.partyId });
  if (call.to) Object.assign(headers, { 'ocpi-to-country-code': call.to.countryCode, 'ocpi-to-party-id': call.to.partyId });
  let body: string | undefined;
  if (call.body) {
    body = JSON.stringify(sendOcpi(call.body.schema, call.body.value));
    headers['content-type'] = 'application/json';
  }
  let response: Response;
  let text: string | null;
  try {
    response = await fetch(call.url, { method: call.method, headers, body, signal: AbortSignal.timeout(30_000) });
    text = await boundedAnswerText(response, MAX_BODY_BYTES);
  } catch (error) {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${call.method} ${call.url}: ${(error as Error).message}`);
  }
  if (text === null) {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${call.method} ${call.url}: HTTP ${response.status}, the answer exceeds ${MAX_BODY_BYTES} bytes`);
  }
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${call.method} ${call.url}: HTTP ${response.status}, not an OCPI answer`);
  }
  const envelope = acceptOcpi<OcpiEnvelope>('envelope', parsed);
  if (envelope.status_code !== OCPI_STATUS.success) {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi,
      `${call.method} ${call.url}: OCPI ${envelope.status_code} ${envelope.status_message ?? ''} (HTTP ${response.status})`.trim());
  }
  return (call.answer ? acceptOcpi<T>(call.answer, envelope.data) : envelope.data) as T;
}
