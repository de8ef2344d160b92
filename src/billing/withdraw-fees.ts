// A defunct contract bills nothing: every current recurring-fee item of its records (a subscription,
// its EVSE links) is withdrawn at the defunct, in its transaction, whichever period holds it:
// deleted from an open box, else reversed in the party's next open box (the core's rules,
// collect-items.ts). A period's billing withdrew them only while the period was open, so a contract
// made defunct after its month closed stayed billed, and one created to replace it was billed again.
import type { Em } from '../platform/orm.ts';
import { collectItems } from './collect-items.ts';
import { lockFeeBilling } from './fee-lock.ts';
import { candidateRows } from './item-source.ts';

const CURRENT_OF_OWNERS = `select i.subject_id from billing_item i
  where i.source_kind = ? and i.admin_id = ? and i.entry = 'original' and not i.superseded and split_part(i.subject_id, '/', 1) = any(?::text[])`;

/** Withdraws the current `kind` fee items of `owners` (a subject's first part: a subscription's or a link's id). */
export async function withdrawFees(em: Em, kind: string, adminId: string, owners: string[]): Promise<void> {
  if (!owners.length) return;
  await lockFeeBilling(em, adminId);
  const rows = await em.execute<{ subject_id: string }[]>(CURRENT_OF_OWNERS, [kind, adminId, `{${owners.join(',')}}`]);
  if (rows.length) await collectItems(em, kind, candidateRows([]), { subjects: rows.map((row) => row.subject_id), answer: false });
}
