// Sessions that could not be priced join the open drop-out case of their group (reason,
// administration, detail), which is created when there is none.
import type { Em } from '../platform/orm.ts';
import type { ChargeSession } from './charge-session.entity.ts';
import { DropoutCase } from './dropout-case.entity.ts';

export interface Dropout { session: ChargeSession; reason: string; message: string; detail?: string }

function groupKeyOf(dropout: Dropout): string {
  return [dropout.reason, dropout.session.admin?.id ?? '-', dropout.detail ?? ''].join('|');
}

export async function recordDropouts(em: Em, dropouts: Dropout[]): Promise<void> {
  if (dropouts.length === 0) return;
  const keys = [...new Set(dropouts.map(groupKeyOf))];
  const open = await em.find(DropoutCase, { openKey: { $in: keys } }, { filters: false });
  const byKey = new Map(open.map((c) => [c.groupKey, c]));
  for (const dropout of dropouts) {
    const key = groupKeyOf(dropout);
    let dropoutCase = byKey.get(key);
    if (!dropoutCase) {
      dropoutCase = em.create(DropoutCase, {
        admin: dropout.session.admin ?? null, reason: dropout.reason, groupKey: key, openKey: key, message: dropout.message,
      } as never);
      byKey.set(key, dropoutCase);
    }
    dropoutCase.sessionCount += 1;
    const { session } = dropout;
    session.status = 'dropout';
    session.dropoutCase = dropoutCase;
    session.dropoutReason = dropout.reason;
    session.dropoutMessage = dropout.message;
  }
}
