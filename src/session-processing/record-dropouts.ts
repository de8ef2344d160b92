// Sessions that could not be priced join the open drop-out case of their group (reason,
// administration, detail), which is created when there is none.
import { uuidv7 } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { DropoutCase } from '../sessions/dropout-case.entity.ts';
import type { DropoutReason } from './dropout-reasons.ts';
import type { SessionOutcome } from './process-sessions.service.ts';

export interface Dropout { outcome: SessionOutcome; reason: DropoutReason; message: string; detail?: string; side?: 'msp' | 'cpo'; evseUid?: string | null }

function groupKeyOf(dropout: Dropout): string {
  const key = [dropout.reason, dropout.outcome.admin_id ?? '-', dropout.detail ?? ''].join('|');
  return dropout.side === 'cpo' ? `cpo|${key}` : key;
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
        id: uuidv7(), admin: dropout.outcome.admin_id, side: dropout.side ?? 'msp', reason: dropout.reason, evseUid: dropout.evseUid ?? null,
        groupKey: key, openKey: key, message: dropout.message,
      });
      byKey.set(key, dropoutCase);
    }
    dropoutCase.sessionCount += 1;
    Object.assign(dropout.outcome, {
      status: 'dropout', dropout_case_id: dropoutCase.id, dropout_reason: dropout.reason, dropout_message: dropout.message,
    });
  }
}
