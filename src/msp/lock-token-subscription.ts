import { LockMode } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { TOKEN_SUBSCRIPTION } from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

/** A subscription visible to the caller, row-locked for the rest of the transaction and re-read. */
export async function lockTokenSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id)
    ? await em.findOne(TokenSubscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, populate: ['plan'] })
    : null;
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  return subscription;
}

