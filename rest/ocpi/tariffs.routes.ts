// OCPI tariffs module, eMSP receiver: GET one Tariff (src/ocpi/ocpi-tariff.queries.ts), PUT and
// DELETE it (src/ocpi/save-tariff.service.ts).
import { getOcpiTariff, type TariffKey } from '../../src/ocpi/ocpi-tariff.queries.ts';
import { deleteTariff, putTariff } from '../../src/ocpi/save-tariff.service.ts';
import type { OcpiRoute } from './ocpi-router.ts';

const PATH = '/2.2.1/emsp/tariffs/:country_code/:party_id/:tariff_id';
const keyOf = (params: Record<string, string>): TariffKey => ({ countryCode: params.country_code, partyId: params.party_id, tariffId: params.tariff_id });

export const tariffRoutes: OcpiRoute[] = [
  {
    method: 'get', path: PATH,
    handler: async ({ em, peer, params }) => ({ data: (await getOcpiTariff(em, peer.roamingConnectionId, keyOf(params))).body, schema: 'tariff' }),
  },
  { method: 'put', path: PATH, handler: async ({ em, peer, params, body }) => { await putTariff(em, peer, keyOf(params), body); return {}; } },
  { method: 'delete', path: PATH, handler: async ({ em, peer, params }) => { await deleteTariff(em, peer, keyOf(params)); return {}; } },
];
