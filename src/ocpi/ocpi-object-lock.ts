// The stored Session or Tariff a CPO's message changes, read under a transaction-level advisory lock
// on its connection and key, taken before the row is read: writes to one object take turns (two
// first PUTs at once as well), so that, sent at once, the newest last_updated stays (decisions: an
// older update changes nothing), and a CDR and its Session arriving at once see each other.
import type { Em } from '../platform/orm.ts';
import { OcpiSession } from './ocpi-session.entity.ts';
import type { SessionKey } from './ocpi-session.queries.ts';
import { OcpiTariff } from './ocpi-tariff.entity.ts';
import type { TariffKey } from './ocpi-tariff.queries.ts';

async function lock(tx: Em, object: string): Promise<void> {
  // Two-key form, a class of its own (after own-charge's 736400126).
  await tx.execute('select pg_advisory_xact_lock(736400127, hashtext(?))', [object]);
}

/** For the caller's transaction. */
export async function lockedSession(tx: Em, roamingConnectionId: string, key: SessionKey): Promise<OcpiSession | null> {
  await lock(tx, `ocpi_session:${roamingConnectionId}:${key.countryCode}:${key.partyId}:${key.sessionId}`);
  return tx.findOne(OcpiSession, { roamingConnectionId, ...key }, { refresh: true });
}

/** For the caller's transaction. */
export async function lockedTariff(tx: Em, roamingConnectionId: string, key: TariffKey): Promise<OcpiTariff | null> {
  await lock(tx, `ocpi_tariff:${roamingConnectionId}:${key.countryCode}:${key.partyId}:${key.tariffId}`);
  return tx.findOne(OcpiTariff, { roamingConnectionId, ...key }, { refresh: true });
}
