// A Tariff a CPO pushes (PUT) or withdraws (DELETE), kept per connection. As for Sessions, a PUT older
// than the stored Tariff (its last_updated before the stored one's) is answered success and changes
// nothing: OCPI messages may arrive out of order. Writes to one Tariff take turns (ocpi-object-lock.ts).
import type { Em } from '../platform/orm.ts';
import { checkedOcpiDateTime } from './date-time.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { speaksFor } from './ocpi-peer.entity.ts';
import type { OcpiPeerData } from './ocpi-peer.queries.ts';
import { lockedTariff } from './ocpi-object-lock.ts';
import { OcpiTariff } from './ocpi-tariff.entity.ts';
import type { TariffKey } from './ocpi-tariff.queries.ts';
import { acceptOcpi } from './validate.ts';

type Caller = Pick<OcpiPeerData, 'roamingConnectionId' | 'roles'>;

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
  await em.transactional(async (tx) => {
    const stored = await lockedTariff(tx, peer.roamingConnectionId, key);
    if (!stored) tx.create(OcpiTariff, { roamingConnectionId: peer.roamingConnectionId, ...key, body: value, lastUpdated });
    else if (lastUpdated.getTime() >= stored.lastUpdated.getTime()) Object.assign(stored, { body: value, lastUpdated });
  });
}

export async function deleteTariff(em: Em, peer: Caller, key: TariffKey): Promise<void> {
  checkParty(peer, key);
  await em.transactional(async (tx) => {
    const tariff = await lockedTariff(tx, peer.roamingConnectionId, key);
    if (tariff) tx.remove(tariff);
  });
}
