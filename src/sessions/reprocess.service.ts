// Sending sessions through the pipeline again: repricing one session (a new pricing result with
// the next version; earlier ones stay), a plan-or-customer correction (the sessions of the old
// subscription from the correction moment on), and drop-out cases (retry, bypass a check, discard).
import { LockMode } from '@mikro-orm/core';
import type { Evse } from '../cpo/evse.entity.ts';
import { onEvseDropoutDisabled } from '../cpo/save-evse.service.ts';
import { onSubscriptionCorrected } from '../msp/repricing-hook.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { ChargeSession } from './charge-session.entity.ts';
import { DropoutCase, type ReprocessInstruction } from './dropout-case.entity.ts';
import { requestProcessingIn } from './session-queue.ts';
import { VALIDITY_CHECKS, type ValidityCheck } from './validity-checks.ts';

export async function getVisibleSession(em: Em, id: string): Promise<ChargeSession> {
  const session = isUuid(id) ? await em.findOne(ChargeSession, { id }) : null;
  if (!session) throw new NotFoundError('charge session');
  return session;
}

export async function repriceSession(em: Em, id: string): Promise<ChargeSession> {
  return em.transactional(async (tx) => {
    const session = await getVisibleSession(tx, id);
    await tx.lock(session, LockMode.PESSIMISTIC_WRITE);
    if (session.status === 'discarded') throw new DomainError('session_discarded', 'a discarded session is not priced again');
    session.status = 'received';
    await tx.flush();
    await requestProcessingIn(tx);
    return session;
  });
}

export async function getVisibleDropoutCase(em: Em, id: string): Promise<DropoutCase> {
  const dropoutCase = isUuid(id) ? await em.findOne(DropoutCase, { id }) : null;
  if (!dropoutCase) throw new NotFoundError('drop-out case');
  return dropoutCase;
}

export interface ReprocessInput { instruction: ReprocessInstruction; bypassChecks?: string[] }

/** The case is resolved; its sessions are priced again (bypassing the named checks) or discarded. */
export async function reprocessDropoutCase(em: Em, id: string, input: ReprocessInput): Promise<DropoutCase> {
  const bypass = input.bypassChecks ?? [];
  if (input.instruction === 'bypass' && bypass.length === 0) {
    throw new InvalidInputError('bypass needs the checks to bypass', { param: '$.bypass_checks' });
  }
  const unknown = bypass.find((check) => !VALIDITY_CHECKS.includes(check as ValidityCheck));
  if (unknown !== undefined) throw new InvalidInputError(`${unknown} is not a check; checks: ${VALIDITY_CHECKS.join(', ')}`, { param: '$.bypass_checks' });
  return em.transactional(async (tx) => {
    const dropoutCase = await getVisibleDropoutCase(tx, id);
    await tx.lock(dropoutCase, LockMode.PESSIMISTIC_WRITE);
    dropoutCase.resolve(input.instruction, new Date());
    const status = input.instruction === 'discard' ? 'discarded' : 'received';
    const changes: Record<string, unknown> = { status, updatedAt: new Date() };
    if (input.instruction === 'bypass') changes.bypassChecks = bypass;
    await tx.nativeUpdate(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout' }, changes, { filters: false });
    await tx.flush();
    if (status === 'received') await requestProcessingIn(tx);
    return dropoutCase;
  });
}

/** Turning off an EVSE's dropout_all_chargesessions with reprocess_dropouts retries its open cases (whoever's sessions they hold). */
async function retryEvseDropouts(em: Em, evse: Evse): Promise<void> {
  await em.transactional(async (tx) => {
    const cases = await tx.find(DropoutCase, { reason: 'evse_dropout_all_chargesessions', status: 'open', groupKey: { $like: `%|${evse.evseUid}` } }, {
      filters: false, lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    for (const dropoutCase of cases) {
      dropoutCase.resolve('retry', new Date());
      await tx.nativeUpdate(ChargeSession, { dropoutCase: dropoutCase.id, status: 'dropout' }, { status: 'received', updatedAt: new Date() }, { filters: false });
    }
    await tx.flush();
    if (cases.length) await requestProcessingIn(tx);
  });
}

let listening = false;

/** A plan-or-customer correction reprices the old subscription's sessions from its moment on (registered once per process). */
export function repriceCorrectedSessions(): void {
  if (listening) return;
  listening = true;
  onEvseDropoutDisabled(retryEvseDropouts);
  onSubscriptionCorrected(async (em, event) => {
    await em.transactional(async (tx) => {
      await tx.nativeUpdate(ChargeSession, {
        subscriptionId: event.oldSubscriptionId, startAt: { $gte: event.from }, status: { $in: ['priced', 'dropout'] },
      }, { status: 'received', updatedAt: new Date() }, { filters: false });
      await requestProcessingIn(tx);
    });
  });
}
