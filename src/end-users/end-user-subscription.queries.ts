// The end user's token subscriptions (App API, GraphQL viewer): reads within the end user's scope
// (end-user-scope.ts), never a check per route. Plain data with the plan's name and whether the
// subscription holds now, as both transports show it.
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { markData, dataByRef, readRows, refs, type RowShape } from '../platform/plain-reads.ts';
import { isCurrentlyValid } from '../platform/validity.ts';
import { TOKEN_SUBSCRIPTION } from '../msp/token-subscription-input.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { inScope, type EndUserScope } from './end-user-scope.ts';

/** A token subscription as the App API shows it: its plan's id and name, and whether it holds now (validity.ts). */
export type EndUserSubscriptionData = Omit<Data<TokenSubscription>, 'plan'> & { plan: { id: string; name: string }; isCurrentlyValid: boolean };

type Shaped = Omit<EndUserSubscriptionData, 'isCurrentlyValid'>;
const withValidity = (subscription: Shaped): EndUserSubscriptionData => Object.assign(subscription, { isCurrentlyValid: isCurrentlyValid(subscription) });

const SUBSCRIPTION: RowShape<EndUserSubscriptionData> = {
  entity: TokenSubscription,
  join: ['plan'],
  map: (row) => withValidity({ ...refs(row, 'admin', 'customer'), plan: { id: row.plan.id, name: row.plan.name } } as Shaped),
};

/** A subscription by id, whoever's scope it is in (the caller checked it), or 400 not_found. */
export async function subscriptionOfEndUser(em: Em, id: string): Promise<EndUserSubscriptionData> {
  const subscription = await dataByRef(em, SUBSCRIPTION, { id });
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  return subscription;
}

/** One subscription of the end user's scope (end-user-scope.ts), or 400 not_found. */
export async function getEndUserSubscription(em: Em, scope: EndUserScope, id: string): Promise<EndUserSubscriptionData> {
  return subscriptionOfEndUser(em, inScope(scope.subscriptionIds, id, TOKEN_SUBSCRIPTION));
}

/** The end user's subscriptions, oldest first (the GraphQL viewer; at most the scope's, which is small). */
export async function endUserSubscriptions(em: Em, scope: EndUserScope, limit: number): Promise<EndUserSubscriptionData[]> {
  if (!scope.subscriptionIds.length) return [];
  return readRows(em, SUBSCRIPTION, { id: { $in: scope.subscriptionIds } }, { orderBy: { id: 'asc' }, limit });
}

/** A subscription a service changed or created (its plan loaded), as the App API shows it. */
export function endUserSubscriptionData(subscription: TokenSubscription): EndUserSubscriptionData {
  const { plan } = subscription;
  return markData(withValidity({ ...plainData(subscription), plan: { id: plan.id, name: plan.name } }), 'TokenSubscription');
}
