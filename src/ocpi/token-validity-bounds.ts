// A token's published `valid` (token-of.ts) changes by itself when one of its links or that link's
// subscription starts or ends at its bound. Every minute this job moves the `last_updated` of the
// tokens concerned by a bound passed since its last run (the moment `msp_token_bound_watermark`
// keeps), so a CPO's delta sync by `date_from` receives them; writes move them by the triggers of
// the token_published_changes and token_validity_published migrations. A token moved since the bound
// is not moved again.
import type { Em } from '../platform/orm.ts';

export const TOKEN_VALIDITY_BOUNDS = 'token_validity_bounds';

// The row lock makes the runs of two workers one after the other; the transaction's now() is where
// the next run starts.
const WATERMARK = 'select passed_until as since, now() as upto from msp_token_bound_watermark for update';

// Bounds in (since, upto]: validity is [valid_from, valid_until), so at its bound the change has
// happened. Each arm reads one bound column's index.
const boundsOf = (alias: string) => ['valid_from', 'valid_until']
  .map((column) => `${alias}.${column} > ?::timestamptz and ${alias}.${column} <= ?::timestamptz`);

const DUE = `select distinct b.token_id from (
    select l.token_id, l.valid_from as at from msp_token_link l where not l.defunct and (${boundsOf('l')[0]})
    union all select l.token_id, l.valid_until from msp_token_link l where not l.defunct and (${boundsOf('l')[1]})
    union all select l.token_id, s.valid_from from msp_token_subscription s join msp_token_link l on l.subscription_id = s.id and not l.defunct
      where not s.defunct and (${boundsOf('s')[0]})
    union all select l.token_id, s.valid_until from msp_token_subscription s join msp_token_link l on l.subscription_id = s.id and not l.defunct
      where not s.defunct and (${boundsOf('s')[1]})
  ) b join msp_token t on t.id = b.token_id where t.updated_at <= b.at`;

/** Moves the tokens whose validity a passed bound changed; answers how many it moved. */
export async function touchTokensAtPassedBounds(em: Em): Promise<number> {
  return em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const context = tx.getTransactionContext();
    const [{ since, upto }] = await connection.execute<{ since: string; upto: string }[]>(WATERMARK, [], 'all', context);
    const window = [since, upto].map((at) => new Date(at).toISOString());
    const due = await connection.execute<{ token_id: string }[]>(DUE, [...window, ...window, ...window, ...window], 'all', context);
    if (due.length) await connection.execute('select msp_token_touch(?::uuid[])', [`{${due.map((row) => row.token_id).join(',')}}`], 'all', context);
    await connection.execute('update msp_token_bound_watermark set passed_until = ?::timestamptz', [window[1]], 'run', context);
    return due.length;
  });
}
