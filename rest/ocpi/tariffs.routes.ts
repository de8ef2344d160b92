// OCPI tariffs module, eMSP receiver: GET, PUT and DELETE one Tariff (src/ocpi/save-tariff.service.ts).
import { OcpiError, OCPI_STATUS } from '../../src/ocpi/errors.ts';
import { deleteTariff, findTariff, putTariff, type TariffKey } from '../../src/ocpi/save-tariff.service.ts';
import type { OcpiRoute } from './ocpi-router.ts';

const PATH = '/2.2.1/emsp/tariffs/:country_code/:party_id/:tariff_id';
const keyOf = (params: Record<string, string>): TariffKey => ({ countryCode: params.country_code, partyId: params.party_id, tariffId: params.tariff_id });

export const tariffRoutes: OcpiRoute[] = [
  {
    method: 'get', path: PATH,
    handler: async ({ em, peer, params }) => {
      const tariff = await findTariff(em, peer, keyOf(params));
      if (!tariff) throw new OcpiError(OCPI_STATUS.clientError, 'unknown tariff', 404);
      return { data: tariff.body, schema: 'tariff' };
    },
  },
  { method: 'put', path: PATH, handler: async ({ em, peer, params, body }) => { await putTariff(em, peer, keyOf(params), body); return {}; } },
  { method: 'delete', path: PATH, handler: async ({ em, peer, params }) => { await deleteTariff(em, peer, keyOf(params)); return {}; } },
];
