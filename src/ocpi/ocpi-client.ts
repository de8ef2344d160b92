// Calls to a peer's OCPI endpoints: the token header, request ids, the body checked as we send it
// and the answer's envelope and data checked as we accept them (validate.ts). A peer that cannot be
// reached within PEER_TIMEOUT_MS, answers more than MAX_BODY_BYTES, redirects, or answers anything
// but status 1000 is an OcpiError (3001: unable to use the client's API).
// The URLs come from peers (their credentials and version details): like webhooks
// (src/webhooks/webhook-target.ts), a call goes to a public address only, unless
// SVC_OCPI_PRIVATE_TARGETS=allow; a URL naming another address is refused before any connection,
// a host name when the connection resolves it. Redirects are not followed.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { MAX_BODY_BYTES } from '../platform/http/body.ts';
import { boundedAnswerText } from '../platform/http/bounded-answer.ts';
import { targetRules } from '../webhooks/webhook-target.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { privatePeerTargetsAllowed } from './ocpi-settings.ts';
import type { OcpiSchemaName } from './schemas/index.ts';
import type { OcpiEnvelope } from './schemas/envelope.ts';
import { authorizationHeader } from './token-header.ts';
import { acceptOcpi, sendOcpi } from './validate.ts';

/** One call at most this long, from connecting to the answer's last byte. */
export const PEER_TIMEOUT_MS = 10_000;

const peerTargets = targetRules(() => privatePeerTargetsAllowed());

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

/** The URL as messages and logs show it: without a user name or password it may carry. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Why the service will not call `url` as written (not an http or https URL, a non-public address), or null. */
export function peerUrlProblem(url: string): string | null {
  let target: URL;
  try { target = new URL(url); } catch { return 'is not a URL'; }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return 'must be an http or https URL';
  const refused = peerTargets.literalProblem(target);
  return refused ? `must name a public host: ${refused} (SVC_OCPI_PRIVATE_TARGETS)` : null;
}

interface Answer { status: number; text: string | null }

/** One request; a redirect's answer is not read (text null, as an answer past the limit). */
function exchange(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    // agent false: a connection of its own, so every call resolves (and checks) its host again.
    const request = send(url, { method, headers, lookup: peerTargets.lookup, agent: false, signal: AbortSignal.timeout(PEER_TIMEOUT_MS) }, (answer) => {
      const status = answer.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        answer.destroy();
        return resolve({ status, text: null });
      }
      boundedAnswerText(answer, MAX_BODY_BYTES).then((text) => resolve({ status, text }), reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function failure(error: Error & { code?: string }): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR') return `no answer within ${PEER_TIMEOUT_MS} ms`;
  if (error.code === 'ENOTPUBLIC') return `${error.message} (SVC_OCPI_PRIVATE_TARGETS)`;
  return error.message;
}

export async function callPeer<T>(call: OcpiCall): Promise<T> {
  const where = `${call.method} ${shownUrl(call.url)}`;
  const problem = peerUrlProblem(call.url);
  if (problem) throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: the URL ${problem}`);
  const headers: Record<string, string> = {
    authorization: authorizationHeader(call.token), 'x-request-id': randomUUID(), 'x-correlation-id': randomUUID(),
  };
  if (call.from) Object.assign(headers, { 'ocpi-from-country-code': call.from.countryCode, 'ocpi-from-party-id': call.from.partyId });
  if (call.to) Object.assign(headers, { 'ocpi-to-country-code': call.to.countryCode, 'ocpi-to-party-id': call.to.partyId });
  let body: string | undefined;
  if (call.body) {
    body = JSON.stringify(sendOcpi(call.body.schema, call.body.value));
    Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  }
  let answer: Answer;
  try {
    answer = await exchange(call.url, call.method, headers, body);
  } catch (error) {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: ${failure(error as Error)}`);
  }
  const { status, text } = answer;
  if (status >= 300 && status < 400) throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: HTTP ${status}, a redirect (not followed)`);
  if (text === null) throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: HTTP ${status}, the answer exceeds ${MAX_BODY_BYTES} bytes`);
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: HTTP ${status}, not an OCPI answer`);
  }
  const envelope = acceptOcpi<OcpiEnvelope>('envelope', parsed);
  if (envelope.status_code !== OCPI_STATUS.success) {
    throw new OcpiError(OCPI_STATUS.unableToUseClientApi, `${where}: OCPI ${envelope.status_code} ${envelope.status_message ?? ''} (HTTP ${status})`.trim());
  }
  return (call.answer ? acceptOcpi<T>(call.answer, envelope.data) : envelope.data) as T;
}
