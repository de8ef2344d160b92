// OCPI sessions module, eMSP receiver: GET, PUT and PATCH one Session (src/ocpi/save-session.service.ts).
import { OcpiError, OCPI_STATUS } from '../../src/ocpi/errors.ts';
import { findSession, patchSession, putSession, type SessionKey } from '../../src/ocpi/save-session.service.ts';
import type { OcpiRoute } from './ocpi-router.ts';

const PATH = '/2.2.1/emsp/sessions/:country_code/:party_id/:session_id';
const keyOf = (params: Record<string, string>): SessionKey => ({ countryCode: params.country_code, partyId: params.party_id, sessionId: params.session_id });

export const sessionRoutes: OcpiRoute[] = [
  {
    method: 'get', path: PATH,
    handler: async ({ em, peer, params }) => {
      const session = await findSession(em, peer, keyOf(params));
      if (!session) throw new OcpiError(OCPI_STATUS.clientError, 'unknown session', 404);
      return { data: session.body, schema: 'session' };
    },
  },
  { method: 'put', path: PATH, handler: async ({ em, peer, params, body }) => { await putSession(em, peer, keyOf(params), body); return {}; } },
  { method: 'patch', path: PATH, handler: async ({ em, peer, params, body }) => { await patchSession(em, peer, keyOf(params), body); return {}; } },
];
