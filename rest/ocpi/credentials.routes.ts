// OCPI credentials module (our side): GET our credentials, POST (the peer registers with token A),
// PUT (a registered peer renews: new tokens both ways), DELETE (the peer unregisters).
import { acceptRegistration, unregisterPeer } from '../../src/ocpi/register-peer.service.ts';
import { ourCredentials } from '../../src/ocpi/our-party.ts';
import type { OcpiCredentials } from '../../src/ocpi/schemas/credentials.ts';
import { acceptOcpi } from '../../src/ocpi/validate.ts';
import { originOf, type OcpiRoute } from './ocpi-router.ts';

const PATH = '/2.2.1/credentials';

export const credentialsRoutes: OcpiRoute[] = [
  { method: 'get', path: PATH, handler: async ({ ctx, peer }) => ({ data: ourCredentials(peer.tokenAccept!, originOf(ctx)), schema: 'credentials' }) },
  {
    method: 'post', path: PATH, peers: ['token_a_issued'],
    handler: async ({ ctx, em, peer, body }) => ({ data: await acceptRegistration(em, peer, acceptOcpi<OcpiCredentials>('credentials', body), originOf(ctx)), schema: 'credentials' }),
  },
  {
    method: 'put', path: PATH,
    handler: async ({ ctx, em, peer, body }) => ({ data: await acceptRegistration(em, peer, acceptOcpi<OcpiCredentials>('credentials', body), originOf(ctx)), schema: 'credentials' }),
  },
  { method: 'delete', path: PATH, handler: async ({ em, peer }) => { await unregisterPeer(em, peer); return {}; } },
];
