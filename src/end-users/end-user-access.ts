import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { validAtOpenStart } from '../platform/validity.ts';
import { CustomerAuthorization } from './customer-authorization.entity.ts';

/**
 * The customers an end user may act for at `at`: non-defunct authorizations whose validity
 * [valid_from, valid_until) holds that moment. The App API reads through the fuller scope of
 * end-user-scope.ts (customers and subscriptions).
 */
export async function authorizedCustomerIds(em: Em, endUserId: string, at: Date): Promise<string[]> {
  if (!isUuid(endUserId)) return [];
  const authorizations = await em.find(CustomerAuthorization, {
    endUser: endUserId,
    defunct: false,
    ...validAtOpenStart(at),
  }, { orderBy: { customer: 'asc' } });
  return authorizations.map((a) => a.customer.id);
}
