// The subjects a periodic source (recurring fees, src/billing/period-sources.ts) has current items of
// in a period: that period's billing names them as covered (collectItems `subjects`), so a fee no
// candidate produces any more is withdrawn (deleted from an open box, else reversed), as a changed one
// is updated: a subscription ended before the period, made defunct, or corrected to another customer
// from an earlier moment. The index billing_item_period_fee_index holds these sources' items only:
// a new periodic source's kind joins its predicate (a migration) and PERIOD_FEE_KINDS.
// A fee withdrawn from a closed box (reversed) that is due again comes back as a new version
// (`withReturningVersions`, also for a recurring cost correction): a version is never billed twice.
import type { Em } from '../platform/orm.ts';
import type { ItemCandidate } from './item-source.ts';

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

// Through the unique index (source_kind, subject_id, …): one look-up per candidate subject.
const versions = (kind: string) => `select subject_id, line_key, max(source_version) as version,
    bool_or(entry = 'original' and not superseded) as current
  from billing_item where source_kind = '${kind}' and subject_id = any(array(select jsonb_array_elements_text(?::jsonb))) group by subject_id, line_key`;

/** The candidates, those whose line has items but no current one (withdrawn, reversed) as the version after its last. */
export async function withReturningVersions(em: Em, kind: string, candidates: ItemCandidate[]): Promise<ItemCandidate[]> {
  if (!PERIOD_FEE_KINDS.includes(kind)) throw new Error(`${kind} is not a periodic source`);
  if (!candidates.length) return candidates;
  const rows = await em.execute<{ subject_id: string; line_key: string; version: number; current: boolean }[]>(
    versions(kind), [JSON.stringify([...new Set(candidates.map((c) => c.subject_id))])]);
  const returning = new Map(rows.filter((row) => !row.current).map((row) => [`${row.subject_id}\n${row.line_key}`, Number(row.version)]));
  return candidates.map((c) => {
    const last = returning.get(`${c.subject_id}\n${c.line_key}`);
    return last === undefined ? c : { ...c, source_version: last + 1 };
  });
}
