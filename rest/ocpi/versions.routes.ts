// OCPI versions module (our side): the versions we speak and the 2.2.1 endpoints we serve. Any
// token we accept may read them (token A before registration, B or C after).
import { OCPI_VERSION, ourVersionDetails, ourVersions } from '../../src/ocpi/our-party.ts';
import { PEER_STATUSES } from '../../src/ocpi/ocpi-peer.entity.ts';
import { originOf, type OcpiRoute } from './ocpi-router.ts';

export const versionRoutes: OcpiRoute[] = [
  { method: 'get', path: '/versions', peers: PEER_STATUSES, handler: async ({ ctx }) => ({ data: ourVersions(originOf(ctx)), schema: 'versions' }) },
  { method: 'get', path: `/${OCPI_VERSION}`, peers: PEER_STATUSES, handler: async ({ ctx }) => ({ data: ourVersionDetails(originOf(ctx)), schema: 'versionDetails' }) },
];
