// The administration an OCPI message belongs to: that of our token its contract id names. Peers'
// messages arrive without a credential scope, so the look-up sees every administration.
import { findTokenByEvcoId } from '../msp/token-lookup.ts';
import type { Administration } from '../parties/administration.entity.ts';
import type { Em } from '../platform/orm.ts';

/** OCPI's longest contract id (CdrToken.contract_id, string(36)). */
const MAX_CONTRACT_ID = 36;

/** null when the contract id is missing, longer than OCPI allows (an invalid CDR's) or not one of our tokens. */
export async function adminOfContractId(em: Em, contractId: unknown): Promise<Administration | null> {
  if (typeof contractId !== 'string' || contractId === '' || contractId.length > MAX_CONTRACT_ID) return null;
  const token = await findTokenByEvcoId(em, contractId, { everyAdministration: true });
  return token?.currentAdmin ?? null;
}
