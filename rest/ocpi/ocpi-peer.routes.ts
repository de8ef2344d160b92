// Admin extension: the OCPI side of a roaming connection. POST .../ocpi/register either registers
// with the peer (its versions_url and token A given) or issues a token A for the peer to register
// with us (nothing given); GET shows where the handshake stands.
import * as yup from 'yup';
import { NotFoundError } from '../../src/platform/errors.ts';
import { isUuid } from '../../src/platform/ids.ts';
import { iso, text } from '../../src/platform/input-schemas.ts';
import { PEER_STATUSES } from '../../src/ocpi/ocpi-peer.entity.ts';
import { getOcpiPeer, type OcpiPeerData } from '../../src/ocpi/ocpi-peer.queries.ts';
import { ourUrls } from '../../src/ocpi/ocpi-settings.ts';
import { issueTokenA, registerWithPeer } from '../../src/ocpi/register-peer.service.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t } from '../rails/shape.ts';
import { originOf } from './ocpi-router.ts';

const TAG = 'OCPI';

export const ocpiPeerShape = representation('OcpiPeer', {
  roaming_connection_id: t.string(),
  status: t.enum(PEER_STATUSES),
  version: t.nullable(t.string()),
  versions_url: t.nullable(t.string()),
  our_versions_url: t.string(),
  token_a: t.optional(t.string('The token A the peer registers with (only in the answer that issued it).')),
  parties: t.array(t.object({ role: t.string(), country_code: t.string(), party_id: t.string(), name: t.string() })),
  endpoints: t.array(t.object({ identifier: t.string(), role: t.string(), url: t.string() })),
  updated_at: t.timestamp(),
});

function serialize(peer: OcpiPeerData, origin: string, tokenA?: string) {
  return {
    roaming_connection_id: peer.roamingConnectionId, status: peer.status, version: peer.version ?? null, versions_url: peer.versionsUrl ?? null,
    our_versions_url: ourUrls(origin).versions, ...(tokenA ? { token_a: tokenA } : {}),
    parties: peer.roles.map((r) => ({ role: r.role, country_code: r.country_code, party_id: r.party_id, name: r.business_details.name })),
    endpoints: peer.endpoints.map((e) => ({ identifier: e.identifier, role: e.role, url: e.url })),
    updated_at: iso(peer.updatedAt),
  };
}

const connectionId = (id: string) => {
  if (!isUuid(id)) throw new NotFoundError('roaming connection');
  return id;
};

export const ocpiPeerRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/roaming-connection/:id/ocpi/register', graphql: 'registerOcpiConnection', tag: TAG, extension: true, bodyOptional: true, response: ocpiPeerShape,
    summary: 'Register the OCPI connection (either direction)',
    description: 'With versions_url and token (the token A the peer gave): reads the peer\'s versions and 2.2.1 endpoints, sends our '
      + 'credentials with a new token B and keeps the token C the peer answers (status registered). Without them: issues a token A '
      + '(answered once, in token_a) for the peer to register with at our_versions_url (status token_a_issued).',
    body: yup.object({ versions_url: text().url('${path} must be a URL'), token: text(64).min(1) }),
    handler: async ({ em, params, body, ctx }) => {
      const id = connectionId(params.id);
      if (body.versions_url && body.token) {
        return serialize(await registerWithPeer(em, { roamingConnectionId: id, versionsUrl: body.versions_url, tokenA: body.token, origin: originOf(ctx) }), originOf(ctx));
      }
      const { peer, tokenA } = await issueTokenA(em, id);
      return serialize(peer, originOf(ctx), tokenA);
    },
  }),
  defineRoute({
    method: 'get', path: '/roaming-connection/:id/ocpi', tag: TAG, extension: true, response: ocpiPeerShape, summary: 'The OCPI side of a roaming connection',
    handler: async ({ em, params, ctx }) => serialize(await getOcpiPeer(em, connectionId(params.id)), originOf(ctx)),
  }),
];
