// "The party's next open box": where a late item goes (its own period's box is closed or later,
// or its review-set is closed), and where a reversal goes (keyed by the reversed item's own box, so
// the party it was billed to). The earliest open box of the same party, series, VAT country,
// currency and distinct code after the item's period; when there is none, the box of the first
// period from now on whose review-set is open, created when missing. Late items are few: this
// runs per distinct key and period.
import type { Em } from '../platform/orm.ts';
import type { InvoicingPeriod } from './billing-settings.entity.ts';
import { periodAfter, periodAt, type BillingPeriod } from './period-bounds.ts';
import { currentActor } from '../events/actor-context.ts';
import { BOX_CREATED_EVENTS, noteEventsWritten } from '../events/event-sql.ts';
import { lockBoxNumberingOf } from './box-numbering-lock.ts';
import { SHARE_REVIEW_SET_TURN } from './lock-box.ts';

interface LateKey {
  admin_id: string;
  series_id: string;
  series_code: string;
  party_kind: string;
  party_id: string;
  vat_country: string;
  currency: string;
  distinct_code: string;
  time_zone: string;
  invoicing_period: InvoicingPeriod;
  locale_id: string | null;
  rollup_group_by: string;
  negate_document_amounts: boolean;
  period_from: Date;
}

/** Rows placed here: late lines (not withdrawn ones: only their reversals are written) and reversals. */
const PLACED = `((c.action = 'late' and not c.withdrawn) or c.action = 'reversal')`;

const LATE_KEYS = `select distinct c.admin_id, c.series_id, s.code as series_code, c.party_kind, c.party_id, c.vat_country, c.currency,
    coalesce(c.distinct_code, '') as distinct_code, c.time_zone, c.invoicing_period, c.locale_id, c.rollup_group_by,
    c.negate_document_amounts, c.period_from
  from billing_candidate c join billing_series s on s.id = c.series_id where ${PLACED}
  -- One order for every transaction: the box numbering locks taken on the way follow it.
  order by c.series_id, c.period_from, c.party_id, c.vat_country, c.currency, distinct_code`;

const NEXT_OPEN = `select b.id from billing_box b join billing_review_set r on r.id = b.review_set_id
  where b.series_id = ? and b.party_id = ? and b.vat_country = ? and b.currency = ? and b.distinct_code = ?
    and b.period_from > ? and b.state = 'open' and r.state = 'open'
  order by b.period_from limit 1 for share of b`;

const ENSURE_REVIEW_SET = `insert into billing_review_set (id, admin_id, series_id, code, period_from, period_until, state, created_at, updated_at)
  values (svc_uuidv7(), ?, ?, ?, ?, ?, 'open', now(), now()) on conflict (series_id, period_from) do nothing`;

// The set's turn first (lock-box.ts), then its row, shared.
const REVIEW_SET_TURN = `select ${SHARE_REVIEW_SET_TURN} from billing_review_set r where r.series_id = ? and r.period_from = ?`;
const REVIEW_SET = `select id, state from billing_review_set where series_id = ? and period_from = ? for share`;

const ENSURE_BOX = `with created as (insert into billing_box (id, admin_id, series_id, review_set_id, review_set_sequence, party_kind, party_id,
    period_from, period_until, vat_country, currency, distinct_code, state, deferred, transferred, locale_id, rollup_group_by,
    negate_document_amounts, created_at, updated_at)
  select svc_uuidv7(), ?, ?, ?, coalesce((select max(review_set_sequence) from billing_box where review_set_id = ?), 0) + 1,
    ?, ?, ?, ?, ?, ?, ?, 'open', false, false, ?, ?, ?, now(), now()
  on conflict (series_id, party_id, period_from, vat_country, currency, distinct_code) do nothing
  returning id, admin_id)
  ${BOX_CREATED_EVENTS}`;

const BOX = `select id, state from billing_box where series_id = ? and party_id = ? and period_from = ? and vat_country = ?
  and currency = ? and distinct_code = ? for share`;

const ASSIGN = `update billing_candidate c set box_id = ? where ${PLACED} and c.series_id = ? and c.party_id = ? and c.vat_country = ?
  and c.currency = ? and coalesce(c.distinct_code, '') = ? and c.period_from = ?`;

const MAX_PERIODS_AHEAD = 36;

async function openBoxFrom(em: Em, key: LateKey, start: BillingPeriod): Promise<string> {
  let period = start;
  for (let i = 0; i < MAX_PERIODS_AHEAD; i++, period = await periodAfter(em, period, key.time_zone, key.invoicing_period)) {
    const code = `${key.series_code}-${period.label}`;
    await em.execute(ENSURE_REVIEW_SET, [key.admin_id, key.series_id, code, period.from, period.until]);
    await em.execute(REVIEW_SET_TURN, [key.series_id, period.from]);
    const [set] = await em.execute<{ id: string; state: string }[]>(REVIEW_SET, [key.series_id, period.from]);
    if (set.state !== 'open') continue;
    const boxKey = [key.series_id, key.party_id, period.from, key.vat_country, key.currency, key.distinct_code];
    let [box] = await em.execute<{ id: string; state: string }[]>(BOX, boxKey);
    if (!box) {
      await lockBoxNumberingOf(em, set.id);
      await em.execute(ENSURE_BOX, [key.admin_id, key.series_id, set.id, set.id, key.party_kind, key.party_id, period.from, period.until,
        key.vat_country, key.currency, key.distinct_code, key.locale_id, key.rollup_group_by, key.negate_document_amounts, currentActor()]);
      noteEventsWritten();
      [box] = await em.execute<{ id: string; state: string }[]>(BOX, boxKey);
    }
    if (box.state === 'open') return box.id;
  }
  throw new Error(`no open billing box within ${MAX_PERIODS_AHEAD} periods for party ${key.party_id}`);
}

export async function placeLateCandidates(em: Em, now = new Date()): Promise<void> {
  const keys = await em.execute<LateKey[]>(LATE_KEYS);
  for (const key of keys) {
    const periodFrom = new Date(key.period_from);
    const [next] = await em.execute<{ id: string }[]>(NEXT_OPEN, [key.series_id, key.party_id, key.vat_country, key.currency,
      key.distinct_code, periodFrom]);
    let boxId = next?.id;
    if (!boxId) {
      const own = await periodAt(em, periodFrom, key.time_zone, key.invoicing_period);
      const current = await periodAt(em, now, key.time_zone, key.invoicing_period);
      const start = current.from > own.from ? current : await periodAfter(em, own, key.time_zone, key.invoicing_period);
      boxId = await openBoxFrom(em, key, start);
    }
    await em.execute(ASSIGN, [boxId, key.series_id, key.party_id, key.vat_country, key.currency, key.distinct_code, periodFrom]);
  }
}
