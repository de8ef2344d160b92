// A CDR that passes resolves the invalid CDRs kept of it: those its connection sent with its id and
// its party. OCPI CDR ids are unique per party only (country_code, party_id, id), and a hub's
// connection relays several parties: another party's CDR with the same id is another CDR.
import type { Em } from '../platform/orm.ts';
import { OcpiInvalidCdr } from './ocpi-invalid-cdr.entity.ts';
import type { OcpiCdr } from './schemas/cdr.ts';

/** The party a kept body names (`NL*CPO`, in capitals as speaksFor compares), or null when it names none. */
function partyOf(body: unknown): string | null {
  const { country_code: country, party_id: party } = (body ?? {}) as { country_code?: unknown; party_id?: unknown };
  return typeof country === 'string' && typeof party === 'string' ? `${country}*${party}`.toUpperCase() : null;
}

export async function resolveInvalidCdrs(tx: Em, roamingConnectionId: string, cdr: Pick<OcpiCdr, 'country_code' | 'party_id' | 'id'>, chargeSessionId: string): Promise<void> {
  const party = partyOf(cdr);
  const open = await tx.find(OcpiInvalidCdr, { roamingConnectionId, cdrId: cdr.id, resolvedAt: null });
  const resolvedAt = new Date();
  for (const record of open) if (partyOf(record.body) === party) Object.assign(record, { resolvedAt, chargeSessionId });
}
