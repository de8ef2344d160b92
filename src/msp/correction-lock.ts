// A processing batch and a plan-or-customer correction's job meet on the old subscription. A batch
// reads its sessions' token links, then prices; a correction committed in between ended those links,
// and its job, finding the batch's sessions still `received`, left them to the batch, which priced
// them on the old subscription for good (the old customer billed). Now a batch holds a shared lock
// per subscription its sessions resolved to, to its commit, and resolves again the sessions whose
// subscription a correction ended before they started (one committed after it read the links); the
// job takes the old subscription's lock exclusively before it reads the sessions to reprice, so a
// batch in flight commits first and the job reprices what it priced. Its own class, next to the
// backfill lanes' 736400122 (two-key form).
import type { Em } from '../platform/orm.ts';
import { resolveTokens, type TokenAt, type TokenResolution } from './resolve-token.ts';

const LOCK_CLASS = 736400128;

/** Rounds of resolving again: a successor corrected in turn meanwhile is resolved once more. */
const MAX_ROUNDS = 3;

async function holdCorrectionsOff(em: Em, subscriptionIds: string[]): Promise<void> {
  if (!subscriptionIds.length) return;
  await em.execute(`select count(pg_advisory_xact_lock_shared(${LOCK_CLASS}, h))
    from (select distinct hashtext(lower(value)) as h from json_array_elements_text(?::json) order by h) ordered`, [JSON.stringify(subscriptionIds)]);
}

/** In the correction job's transaction, before it reads the old subscription's sessions: batches that priced on it commit first. */
export async function lockForCorrection(em: Em, subscriptionId: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(lower(?)))`, [subscriptionId]);
}

/** The earliest moment a correction ended each of the subscriptions at, for those corrected. */
async function correctedFrom(em: Em, subscriptionIds: string[]): Promise<Map<string, Date>> {
  const rows = await em.execute<{ id: string; corrected_from: Date | string }[]>(`select old_subscription_id::text as id, min(corrected_from) as corrected_from
    from msp_subscription_correction where old_subscription_id in (select value::uuid from json_array_elements_text(?::json)) group by 1`,
  [JSON.stringify(subscriptionIds)]);
  return new Map(rows.map((row) => [row.id, new Date(row.corrected_from)]));
}

/**
 * resolveTokens for a processing batch: each subscription resolved to is held against corrections
 * (to the commit), and a session whose subscription a correction ended at or before its start is
 * resolved again (the correction committed after its links were read).
 */
export async function resolveTokensForPricing(em: Em, pairs: TokenAt[]): Promise<TokenResolution[]> {
  const resolutions = await resolveTokens(em, pairs);
  let pending = pairs.map((_, i) => i);
  for (let round = 0; pending.length && round < MAX_ROUNDS; round++) {
    const ids = [...new Set(pending.map((i) => resolutions[i].subscription?.id).filter((id): id is string => !!id))];
    if (!ids.length) break;
    await holdCorrectionsOff(em, ids);
    const ended = await correctedFrom(em, ids);
    pending = pending.filter((i) => {
      const from = ended.get(resolutions[i].subscription?.id ?? '');
      return from !== undefined && from.getTime() <= pairs[i].at.getTime();
    });
    if (!pending.length) break;
    const fresh = await resolveTokens(em, pending.map((i) => pairs[i]));
    pending.forEach((i, k) => { resolutions[i] = fresh[k]; });
  }
  return resolutions;
}
