// Instance-wide data serves every administration (decisions.md "Access to instance-wide data"):
// instance settings, the administrations themselves, VAT rates, roaming partners, connections and agreements with their OCPI
// registration, token brands. Only a credential without an administration limit may change it; a
// limited one gets 403 `forbidden` before anything is read or written. The services of these
// writes call this with the scope of the caller's EntityManager, so REST and GraphQL both refuse.
import { DomainError } from '../platform/errors.ts';
import type { AdminScope } from './admin-scope.ts';

/** The kinds of instance-wide data, as the refusal names them. */
export type InstanceWideData =
  | 'instance settings' | 'VAT rates' | 'roaming partners' | 'roaming connections' | 'roaming agreements'
  | 'OCPI registrations' | 'token brands' | 'administrations';

export function assertMayChangeInstanceWide(scope: AdminScope, what: InstanceWideData): void {
  if (!scope.all) {
    throw new DomainError('forbidden', `${what} serve every administration: only a credential without an administration limit may change them`);
  }
}
