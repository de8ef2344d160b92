// OCPI sessions module, eMSP receiver: GET one Session (src/ocpi/ocpi-session.queries.ts), PUT and
// PATCH it (src/ocpi/save-session.service.ts). A body's strings are checked as /main/v1 checks a
// body's (rest/rails/input-guards.ts): no control character in an identifier (id, uid, contract_id ...).
import { checkBodyStrings } from '../rails/input-guards.ts';
import { getOcpiSession, type SessionKey } from '../../src/ocpi/ocpi-session.queries.ts';
import { patchSession, putSession } from '../../src/ocpi/save-session.service.ts';
import type { OcpiRoute } from './ocpi-router.ts';

const PATH = '/2.2.1/emsp/sessions/:country_code/:party_id/:session_id';
const keyOf = (params: Record<string, string>): SessionKey => ({ countryCode: params.country_code, partyId: params.party_id, sessionId: params.session_id });

export const sessionRoutes: OcpiRoute[] = [
  {
    method: 'get', path: PATH,
    handler: async ({ em, peer, params }) => ({ data: (await getOcpiSession(em, peer.roamingConnectionId, keyOf(params))).body, schema: 'session' }),
  },
  { method: 'put', path: PATH, handler: async ({ em, peer, params, body }) => { checkBodyStrings(body); await putSession(em, peer, keyOf(params), body); return {}; } },
  { method: 'patch', path: PATH, handler: async ({ em, peer, params, body }) => { checkBodyStrings(body); await patchSession(em, peer, keyOf(params), body); return {}; } },
];
