// The subjects a periodic source (recurring fees, src/billing/period-sources.ts) has current items of
// in a period: that period's billing names them as covered (collectItems `subjects`), so a fee no
// candidate produces any more is withdrawn (deleted from an open box, else reversed), as a changed one
// is updated: a subscription ended before the period, made defunct, or corrected to another customer
// from an earlier moment. The index billing_item_period_fee_index holds these sources' items only:
// a new periodic source's kind joins its predicate (a migration) and PERIOD_FEE_KINDS.
// A fee withdrawn from a closed box (reversed) that is due again comes back as a new version (the
// core's MARK_RETURNING, collect-items.ts): a version is never billed twice.
import type { Em } from '../platform/orm.ts';

const PERIOD_FEE_KINDS = ['msp_subscription_fee', 'cpo_subscription_fee'];

// The kind is written into the statement: the partial index's predicate must be provable from its text.
const billedSubjects = (kind: string) => `select distinct i.subject_id from billing_item i
  where i.source_kind = '${kind}' and i.admin_id = ? and i.occurred_at = ? and i.entry = 'original' and not i.superseded`;

/** The subjects of `kind`'s current items of the administration's period that starts at `periodFrom`. */
export async function billedPeriodSubjects(em: Em, kind: string, adminId: string, periodFrom: Date): Promise<string[]> {
  if (!PERIOD_FEE_KINDS.includes(kind)) throw new Error(`${kind} is not a periodic source of billing_item_period_fee_index`);
  const rows = await em.execute<{ subject_id: string }[]>(billedSubjects(kind), [adminId, periodFrom]);
  return rows.map((row) => row.subject_id);
}

const billedOwners = (kind: string) => `select distinct split_part(i.subject_id, '/', 1) as owner from billing_item i
  where i.source_kind = '${kind}' and i.admin_id = ? and i.occurred_at = ? and i.entry = 'original' and not i.superseded
    and split_part(i.subject_id, '/', 1) = any(?::text[])`;

/** Which of `owners` (subscriptions, EVSE links: a subject's first part) hold current items of `kind` in the period that starts at `periodFrom`. */
export async function billedPeriodOwners(em: Em, kind: string, adminId: string, periodFrom: Date, owners: string[]): Promise<string[]> {
  if (!PERIOD_FEE_KINDS.includes(kind)) throw new Error(`${kind} is not a periodic source of billing_item_period_fee_index`);
  if (!owners.length) return [];
  const rows = await em.execute<{ owner: string }[]>(billedOwners(kind), [adminId, periodFrom, `{${owners.join(',')}}`]);
  return rows.map((row) => row.owner);
}
