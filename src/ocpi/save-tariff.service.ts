// A Tariff a CPO pushes (PUT) or withdraws (DELETE), kept per connection.
import { createUnlessTaken } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { checkedOcpiDateTime } from './date-time.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { speaksFor } from './ocpi-peer.entity.ts';
import type { OcpiPeerData } from './ocpi-peer.queries.ts';
import { OcpiTariff } from './ocpi-tariff.entity.ts';
import type { TariffKey } from './ocpi-tariff.queries.ts';
import { acceptOcpi } from './validate.ts';

type Caller = Pick<OcpiPeerData, 'roamingConnectionId' | 'roles'>;

const KEY_UNIQUE = 'ocpi_tariff_roaming_connection_id_country_code_pa_23121_unique';

/** The stored Tariff to change (reads: ocpi-tariff.queries.ts). */
function storedTariff(em: Em, peer: Caller, key: TariffKey): Promise<OcpiTariff | null> {
  return em.findOne(OcpiTariff, { roamingConnectionId: peer.roamingConnectionId, ...key });
}

/** A peer speaks only for the parties of its credentials (as for sessions and CDRs). */
function checkParty(peer: Caller, key: TariffKey): void {
  if (!speaksFor(peer, key.countryCode, key.partyId)) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, `party ${key.countryCode}*${key.partyId} is not one of this connection's`, 400);
  }
}

export async function putTariff(em: Em, peer: Caller, key: TariffKey, raw: unknown): Promise<void> {
  checkParty(peer, key);
  const value = acceptOcpi<{ country_code: string; party_id: string; id: string; last_updated: string }>('tariff', raw);
  if (value.country_code !== key.countryCode || value.party_id !== key.partyId || value.id !== key.tariffId) {
    throw new OcpiError(OCPI_STATUS.invalidParameters, 'country_code, party_id and id of the body must be those of the URL', 400);
  }
  const lastUpdated = checkedOcpiDateTime(value.last_updated);
  let tariff = await storedTariff(em, peer, key);
  if (!tariff) {
    // The key's unique constraint is the check: the same PUT sent at once stores the Tariff once.
    const created = await createUnlessTaken(em, KEY_UNIQUE, async (tx) => {
      tx.create(OcpiTariff, { roamingConnectionId: peer.roamingConnectionId, ...key, body: value, lastUpdated });
      await tx.flush();
      return true;
    });
    if (created) return;
    tariff = await storedTariff(em, peer, key);
  }
  tariff ??= em.create(OcpiTariff, { roamingConnectionId: peer.roamingConnectionId, ...key, body: value, lastUpdated });
  Object.assign(tariff, { body: value, lastUpdated });
  await em.flush();
}

export async function deleteTariff(em: Em, peer: Caller, key: TariffKey): Promise<void> {
  checkParty(peer, key);
  const tariff = await storedTariff(em, peer, key);
  if (tariff) em.remove(tariff);
  await em.flush();
}
