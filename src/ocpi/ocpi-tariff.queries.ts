// Reads of the OCPI Tariffs CPOs push (GET /ocpi/2.2.1/emsp/tariffs/...), as plain data: one
// Tariff of a connection by its key.
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { readRow, rowData } from '../platform/plain-reads.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { OcpiTariff } from './ocpi-tariff.entity.ts';

export type OcpiTariffData = Data<OcpiTariff>;

export interface TariffKey { countryCode: string; partyId: string; tariffId: string }

/** The Tariff a connection's CPO stored under this key; none is OCPI 2000 with HTTP 404. */
export async function getOcpiTariff(em: Em, roamingConnectionId: string, key: TariffKey): Promise<OcpiTariffData> {
  const tariff = await readRow(em, { entity: OcpiTariff, map: (row) => rowData(em, OcpiTariff, row) }, { roamingConnectionId, ...key });
  if (!tariff) throw new OcpiError(OCPI_STATUS.clientError, 'unknown tariff', 404);
  return tariff;
}
