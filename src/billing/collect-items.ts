// The billing core's placement of item candidates, set-based: candidates of one source go into a
// temporary table, are compared with the current items of their subjects, and are written as
// items into boxes and roll-ups with a handful of statements whatever their number.
//   new        → the box of its period (party, series, VAT country, currency), created when missing,
//                while that box is open and its review-set not closed; else the party's next open box
//   changed    → in an open box: updated in place; in a closed or later box: the new item goes to the
//                party's next open box, and the reversal of the old item to the next open box of the
//                party it was billed to (its own box's party, series, VAT country, currency, distinct code)
//   moved      → (a changed line whose box key is not its current item's: a customer correction, another
//                series billing the source now) the old item is withdrawn and the line is billed as new
//   withdrawn  → (a line of a subject the source no longer produces, or any line of a subject the caller
//                names as covered and no candidate produces) deleted from an open box, else reversed
// Boxes that receive items are locked FOR SHARE, so a concurrent close (FOR UPDATE) either waits
// for this transaction or happens first and is seen. Review-sets are shared too; only creating
// boxes in one is serialized (box-numbering-lock.ts). Roll-ups are never deleted: one left without
// items is hidden from reads, so a concurrent collection can never place an item in a deleted one.
import type { Em } from '../platform/orm.ts';
import type { CandidateSelect } from './item-source.ts';
import { placeLateCandidates } from './next-open-box.ts';
import { lockBoxNumbering } from './box-numbering-lock.ts';
import { SHARE_REVIEW_SET_TURN } from './lock-box.ts';
import { negatesDocumentAmountsSql } from './billing-series.entity.ts';
import { currentActor } from '../events/actor-context.ts';
import { BOX_CREATED_EVENTS, noteEventsWritten } from '../events/event-sql.ts';
import { periodBoundsSql, periodLabelSql, periodLengthSql } from './period-bounds.ts';

export interface CollectResult {
  /** Items written or updated, per subject and line. */
  items: { subject_id: string; line_key: string; item_id: string; box_id: string }[];
}


const PERIOD_LABEL = periodLabelSql('c.period_from', 'c.time_zone', 'c.invoicing_period');

// Each row's period start in the administration's zone (period-bounds.ts). Its end is worked out per box key
// (NEW_KEYS): the rows are many, the keys few, and per row the end cost as much as the start.
const ROW_PERIOD_FROM = periodBoundsSql('c.occurred_at', 's.time_zone', 's.unit', 's.length').from;
const KEY_PERIOD_UNTIL = periodBoundsSql('k.period_from', 'k.time_zone', 'k.invoicing_period', periodLengthSql('k.invoicing_period')).until;

function createCandidateTable(select: CandidateSelect, kind: string): { sql: string; params: unknown[] } {
  return {
    // The candidates stream through: the administration's settings and the series are looked up
    // per administration and series code (a memoized lateral: once per pair, not per row), so the
    // rows are neither materialized nor sorted.
    sql: `create temp table billing_candidate on commit drop as
    select c.*, ?::text as source_kind, ?::text as party_kind, s.time_zone, s.invoicing_period,
      s.series_id, s.negate as negate_document_amounts,
      coalesce(cust.locale_id, s.locale_id) as locale_id,
      coalesce(cust.billing_rollup_group_by, 'product') as rollup_group_by,
      case coalesce(cust.billing_rollup_group_by, 'product') when 'subscription' then c.group_subscription
        when 'token' then c.group_token end as group_value,
      c.product_category || '|' || c.vat_kind || '|' || trim_scale(c.vat_percent)::text || '|' || coalesce(case coalesce(cust.billing_rollup_group_by,
        'product') when 'subscription' then c.group_subscription when 'token' then c.group_token end, '') as rollup_key,
      ${ROW_PERIOD_FROM} as period_from, null::timestamptz as period_until,
      'original'::text as entry, null::uuid as reverses_item_id, false as withdrawn,
      null::uuid as current_id, null::uuid as current_box_id, 'new'::text as action,
      null::uuid as box_id, null::uuid as rollup_id, svc_uuidv7() as item_id, false as billed_subject
    from (${select.sql}) c
    cross join lateral (select a.time_zone, coalesce(bs.invoicing_period, 'month') as invoicing_period,
        coalesce(bs.locale_id, a.locale_id) as locale_id, r.id as series_id, r.negate, p.unit, p.length
      from administration a
      left join billing_settings bs on bs.admin_id = a.id
      -- The series of the administration and series code.
      cross join lateral (select r.id, ${negatesDocumentAmountsSql('r.primary_document_type')} as negate
        from billing_series r
        where r.admin_id = a.id and case when c.series_code is not null then r.code = c.series_code::citext
          else (r.item_sources @> jsonb_build_array(?::text) or r.item_sources = '[]'::jsonb) end
        order by (r.item_sources @> jsonb_build_array(?::text)) desc, r.created_at, r.id limit 1) r
      cross join lateral (select
        case coalesce(bs.invoicing_period, 'month') when 'month' then 'month' when 'quarter' then 'quarter' else 'year' end as unit,
        ${periodLengthSql("coalesce(bs.invoicing_period, 'month')")} as length) p
      where a.id = c.admin_id) s
    left join customer cust on cust.id = c.party_id`,
    params: [kind, select.partyKind ?? 'customer', ...select.params, kind, kind],
  };
}

/**
 * Whether some item of the source has a subject in the candidates' range of subjects: one look at
 * the unique index. Without one, every candidate is new (a backfill's batch, a first billing).
 */
const ANY_BILLED_IN_RANGE = `select exists (select 1 from billing_item i where i.source_kind = ? and i.subject_id >= ? and i.subject_id <= ?) as found`;

/** What the candidates hold, in one pass: statements for none of it are skipped. */
const SUMMARY = `select coalesce(bool_or(action = 'new'), false) as new, coalesce(bool_or(action = 'same'), false) as same,
    coalesce(bool_or(action = 'changed'), false) as changed, coalesce(bool_or(billed_subject), false) as billed,
    min(subject_id) as low, max(subject_id) as high
  from billing_candidate`;

interface Summary { new: boolean; same: boolean; changed: boolean; billed: boolean; low: string | null; high: string | null }

/**
 * A candidate the same as its current item: a version not newer than the item's, the same amounts and
 * text, and billed to the same party, VAT country and currency (a line of another party is never
 * 'same', whatever its version). Not newer: an item's version may be ahead of its source's (a changed
 * fee or roaming line, a line that came back), and the same line again is no change.
 */
const SAME_AS_CURRENT = `i.source_version >= c.source_version and i.amount_excl_vat = round(c.amount_excl_vat, 2)
  and i.vat_percent = c.vat_percent and i.vat_kind = c.vat_kind and i.quantity = c.quantity and i.description = c.description
  and i.party_id = c.party_id and i.vat_country = c.vat_country and i.currency = c.currency`;

const MARK_CURRENT = `update billing_candidate c set current_id = i.id, current_box_id = i.box_id,
    action = case when ${SAME_AS_CURRENT} then 'same' else 'changed' end,
    source_version = case when c.source_version <= i.source_version and not (${SAME_AS_CURRENT})
      then i.source_version + 1 else c.source_version end
  from billing_item i
  where i.source_kind = c.source_kind and i.subject_id = c.subject_id and i.line_key = c.line_key
    and not i.superseded and i.entry = 'original' and not c.withdrawn`;

/**
 * A line without a current item whose earlier items are still there (reversed out of a closed box: a
 * withdrawn reimbursement or roaming line, a fee no longer due, that is due again) comes back as the
 * version after its last: a version is never billed twice, and its source may count from 1 again.
 */
const MARK_RETURNING = `update billing_candidate c set source_version = m.version + 1
  from (select i.subject_id, i.line_key, max(i.source_version) as version from billing_item i
    where i.source_kind = ? and i.subject_id in (select subject_id from billing_candidate where action = 'new') group by 1, 2) m
  where c.action = 'new' and not c.withdrawn and m.subject_id = c.subject_id and m.line_key = c.line_key and c.source_version <= m.version`;

/** Candidates whose subject has current items (of any line): their other lines may be withdrawn. */
const MARK_BILLED_SUBJECTS = `update billing_candidate c set billed_subject = true where exists (select 1 from billing_item i
  where i.source_kind = c.source_kind and i.subject_id = c.subject_id and not i.superseded and i.entry = 'original')`;

/** Every column of the candidate table, for rows the core adds itself (withdrawn lines, reversals). */
const INSERT_CANDIDATE = `insert into billing_candidate (admin_id, party_id, subject_id, line_key, source_version, occurred_at,
    product_category, vat_kind, vat_percent, vat_country, currency, description, quantity, unit, unit_price, amount_excl_vat,
    vat_amount_unrounded, group_subscription, group_token, sub_items, context, reference, box_category_description, distinct_code,
    series_code, external_reference, input, source_kind, time_zone, invoicing_period, series_id, negate_document_amounts, locale_id,
    rollup_group_by, group_value, rollup_key, period_from, period_until, entry, reverses_item_id, withdrawn, current_id, current_box_id,
    action, box_id, rollup_id, item_id, party_kind)`;

/**
 * Withdrawn rows of the current items `i`: each keeps its own box's key (series, party, VAT country,
 * currency, distinct code, period, locale), so its reversal goes to the next open box of that party.
 */
const WITHDRAWN_ROWS = `select i.admin_id, i.party_id, i.subject_id, i.line_key, i.source_version, i.occurred_at, i.product_category, i.vat_kind,
    i.vat_percent, i.vat_country, i.currency, i.description, i.quantity, i.unit, i.unit_price, i.amount_excl_vat,
    i.vat_amount_unrounded, null, null, i.sub_items, i.context, i.reference, i.box_category_description, b.distinct_code, null,
    null, null, i.source_kind, a.time_zone, coalesce(bs.invoicing_period, 'month'), b.series_id, b.negate_document_amounts,
    b.locale_id, b.rollup_group_by, i.group_value, r.rollup_key, b.period_from, b.period_until, 'original', null, true, i.id, i.box_id,
    'changed', null, null, svc_uuidv7(), b.party_kind
  from billing_item i
  join billing_box b on b.id = i.box_id
  join billing_rollup r on r.id = i.rollup_id
  join administration a on a.id = i.admin_id
  left join billing_settings bs on bs.admin_id = i.admin_id`;

/** Current items of the candidates' subjects (and of the covered subjects) whose line the source no longer produces. */
const addWithdrawn = (covered: boolean) => `${INSERT_CANDIDATE} ${WITHDRAWN_ROWS}
  where i.source_kind = ? and not i.superseded and i.entry = 'original'
    and i.subject_id in (select subject_id from billing_candidate${covered ? ' union select jsonb_array_elements_text(?::jsonb)' : ''})
    and not exists (select 1 from billing_candidate c where c.subject_id = i.subject_id and c.line_key = i.line_key)`;

/**
 * Changed lines that belong in a box of another key than their current item's (another party after a
 * customer correction, another series, VAT country or currency): the current item is withdrawn (its
 * own row, with its own box's key: deleted from an open box, else reversed into its party's next open
 * box), and the line is billed as new, to the box of its period for the party now responsible (or that
 * party's next open box). Answers how many moved.
 */
const SPLIT_MOVED = `with moved as (select c.current_id from billing_candidate c join billing_box b on b.id = c.current_box_id
    where c.action = 'changed' and not c.withdrawn
      and (b.series_id, b.party_id, b.vat_country, b.currency, b.distinct_code)
        is distinct from (c.series_id, c.party_id, c.vat_country, c.currency, coalesce(c.distinct_code, ''))),
  renewed as (update billing_candidate c set action = 'new', current_id = null, current_box_id = null
    where not c.withdrawn and c.action = 'changed' and c.current_id in (select current_id from moved) returning 1),
  withdrawn as (${INSERT_CANDIDATE} ${WITHDRAWN_ROWS} where i.id in (select current_id from moved))
  select count(*)::int as moved from renewed`;

const LOCK_CURRENT_BOXES = `select b.id from billing_box b
  where b.id in (select current_box_id from billing_candidate where action = 'changed') and b.state = 'open'
  order by b.id for share`;

const UPDATE_IN_OPEN_BOXES = `update billing_candidate c set action = case when c.withdrawn then 'delete' else 'update' end, box_id = b.id
  from billing_box b join billing_review_set r on r.id = b.review_set_id
  where c.action = 'changed' and b.id = c.current_box_id and b.state = 'open' and r.state = 'open'`;

/**
 * The box keys of the new rows, once (a few per party, where the rows are many): review-sets and
 * boxes are ensured, locked and checked from these.
 */
const NEW_KEYS = `create temp table billing_candidate_key on commit drop as
  select k.*, ${KEY_PERIOD_UNTIL} as period_until
  from (select series_id, party_id, period_from, vat_country, currency, coalesce(distinct_code, '') as distinct_code,
      -- The same for every row of a key (its administration, series, party and period): grouped, not sorted.
      min(admin_id) as admin_id, min(party_kind) as party_kind, min(locale_id) as locale_id,
      min(rollup_group_by) as rollup_group_by, bool_or(negate_document_amounts) as negate_document_amounts, min(time_zone) as time_zone,
      min(invoicing_period) as invoicing_period
    from billing_candidate where action = 'new'
    group by series_id, party_id, period_from, vat_country, currency, coalesce(distinct_code, '')) k`;

const ENSURE_REVIEW_SETS = `insert into billing_review_set (id, admin_id, series_id, code, period_from, period_until, state, created_at, updated_at)
  select svc_uuidv7(), c.admin_id, c.series_id, s.code || '-' || ${PERIOD_LABEL}, c.period_from, c.period_until, 'open', now(), now()
  from (select distinct on (series_id, period_from) admin_id, series_id, period_from, period_until, time_zone, invoicing_period
    from billing_candidate_key order by series_id, period_from) c
  join billing_series s on s.id = c.series_id
  on conflict (series_id, period_from) do nothing`;

// Shared: a concurrent close of the review-set (FOR UPDATE) waits, concurrent collections do not; the
// set's turn first (lock-box.ts), in which a waiting close goes before collections that come later.
const TAKE_REVIEW_SET_TURNS = `select ${SHARE_REVIEW_SET_TURN} from (select r.id from billing_review_set r
  where (r.series_id, r.period_from) in (select series_id, period_from from billing_candidate_key) and r.state = 'open'
  order by r.id) r`;
const LOCK_REVIEW_SETS = `select r.id from billing_review_set r
  where (r.series_id, r.period_from) in (select series_id, period_from from billing_candidate_key) and r.state = 'open'
  order by r.id for share`;

export const BOX_KEY_MATCH = `b.series_id = c.series_id and b.party_id = c.party_id and b.period_from = c.period_from
  and b.vat_country = c.vat_country and b.currency = c.currency and b.distinct_code = coalesce(c.distinct_code, '')`;

const ENSURE_BOXES = `with k as (select * from billing_candidate_key),
  sets as (select r.id, r.series_id, r.period_from from billing_review_set r
    where r.state = 'open' and (r.series_id, r.period_from) in (select series_id, period_from from k)),
  last as (select b.review_set_id, max(b.review_set_sequence) as n from billing_box b where b.review_set_id in (select id from sets) group by 1),
  created as (insert into billing_box (id, admin_id, series_id, review_set_id, review_set_sequence, party_kind, party_id,
    period_from, period_until, vat_country, currency, distinct_code, state, deferred, transferred, locale_id, rollup_group_by,
    negate_document_amounts, created_at, updated_at)
  select svc_uuidv7(), k.admin_id, k.series_id, sets.id,
    coalesce(last.n, 0) + row_number() over (partition by sets.id order by k.party_id, k.vat_country, k.currency, k.distinct_code),
    k.party_kind, k.party_id, k.period_from, k.period_until, k.vat_country, k.currency, k.distinct_code, 'open', false, false,
    k.locale_id, k.rollup_group_by, k.negate_document_amounts, now(), now()
  from k join sets on sets.series_id = k.series_id and sets.period_from = k.period_from
  left join last on last.review_set_id = sets.id
  where not exists (select 1 from billing_box b where b.series_id = k.series_id and b.party_id = k.party_id
    and b.period_from = k.period_from and b.vat_country = k.vat_country and b.currency = k.currency and b.distinct_code = k.distinct_code)
  on conflict (series_id, party_id, period_from, vat_country, currency, distinct_code) do nothing
  returning id, admin_id)
  ${BOX_CREATED_EVENTS}`;

const ANY_MISSING_BOX = `select exists (select 1 from billing_candidate_key c
  where not exists (select 1 from billing_box b where ${BOX_KEY_MATCH})) as found`;

/** Review-sets of keys without a box yet: only these create boxes (and number them). */
const REVIEW_SETS_OF_MISSING_BOXES = `select r.id from billing_review_set r
  where r.state = 'open' and (r.series_id, r.period_from) in (select c.series_id, c.period_from from billing_candidate_key c
    where not exists (select 1 from billing_box b where ${BOX_KEY_MATCH}))`;

const LOCK_OWN_BOXES = `select b.id from billing_box b
  where (b.series_id, b.party_id, b.period_from, b.vat_country, b.currency, b.distinct_code) in (
    select series_id, party_id, period_from, vat_country, currency, distinct_code from billing_candidate_key)
    and b.state = 'open'
  order by b.id for share of b`;

/**
 * Whether some new rows' own box is not open (or its review-set closed). Each key looks its box up
 * by the unique index (a lateral): boxes this transaction just created have no statistics yet, and
 * an anti-join planned without them compared every key with every box (5 s for 10,000 boxes).
 */
const ANY_NEW_LATE = `select exists (select 1 from billing_candidate_key c
  left join lateral (select b.state, r.state as set_state from billing_box b join billing_review_set r on r.id = b.review_set_id
    where ${BOX_KEY_MATCH} limit 1) b on true
  where b.state is distinct from 'open' or b.set_state is distinct from 'open') as found`;

/** New rows whose own box is not open (or whose review-set is closed) are late. */
const MARK_NEW_LATE = `update billing_candidate c set action = 'late' where c.action = 'new' and not exists (
  select 1 from billing_box b join billing_review_set r on r.id = b.review_set_id
  where ${BOX_KEY_MATCH} and b.state = 'open' and r.state = 'open')`;

const MARK_LATE = `update billing_candidate set action = 'late' where action = 'changed' and box_id is null`;

/**
 * Each late change of an existing item (a changed line, a withdrawn one) brings the reversal of that
 * item. The reversal is keyed by the box the item is in: its party, series, VAT country, currency,
 * distinct code, locale and period, so that placement (next-open-box.ts) puts it into the next open box
 * of the party it was billed to, never into the box of the new line (another party's after a customer
 * correction). Runs before placement.
 */
const ADD_REVERSALS = `${INSERT_CANDIDATE}
  select i.admin_id, b.party_id, i.subject_id, i.line_key, i.source_version, i.occurred_at, i.product_category, i.vat_kind,
    i.vat_percent, b.vat_country, b.currency, 'Reversal: ' || i.description, -i.quantity, i.unit, i.unit_price, -i.amount_excl_vat,
    -i.vat_amount_unrounded, null, null,
    coalesce((select jsonb_agg(jsonb_set(jsonb_set(e, '{volume}', to_jsonb((-(e->>'volume')::numeric)::text)),
      '{amount_excl_vat}', to_jsonb((-(e->>'amount_excl_vat')::numeric)::text))) from jsonb_array_elements(i.sub_items) e), '[]'::jsonb),
    i.context, i.reference, i.box_category_description, b.distinct_code, null, null, null, i.source_kind, a.time_zone,
    coalesce(bs.invoicing_period, 'month'), b.series_id, b.negate_document_amounts, b.locale_id, b.rollup_group_by, i.group_value,
    r.rollup_key, b.period_from, b.period_until, 'reversal', i.id, false, null, null, 'reversal', null, null, svc_uuidv7(), b.party_kind
  from billing_candidate c join billing_item i on i.id = c.current_id join billing_box b on b.id = i.box_id
  join billing_rollup r on r.id = i.rollup_id join administration a on a.id = i.admin_id
  left join billing_settings bs on bs.admin_id = i.admin_id
  where c.action = 'late' and c.current_id is not null`;

/** Where each row goes: new rows to the open box of their key, the others to the box placement chose. */
const TARGETS = `select c.*, coalesce(c.box_id, b.id) as target_box_id from billing_candidate c
  left join billing_box b on c.action = 'new' and ${BOX_KEY_MATCH} and b.state = 'open'
  where not c.withdrawn and c.action in ('new', 'late', 'reversal', 'update')`;

const ENSURE_ROLLUPS = `insert into billing_rollup (id, admin_id, box_id, rollup_key, product_category, vat_kind, vat_percent,
    group_value, context, created_at)
  select svc_uuidv7(), d.admin_id, d.target_box_id, d.rollup_key, d.product_category, d.vat_kind, d.vat_percent, d.group_value,
    d.box_category_description, now()
  from (select distinct on (t.target_box_id, t.rollup_key) t.admin_id, t.target_box_id, t.rollup_key, t.product_category, t.vat_kind,
      t.vat_percent, t.group_value, t.box_category_description
    from (${TARGETS}) t
    where t.target_box_id is not null
      -- Roll-ups that exist already are not sorted out of every row again.
      and not exists (select 1 from billing_rollup r where r.box_id = t.target_box_id and r.rollup_key = t.rollup_key)) d
  on conflict (box_id, rollup_key) do nothing`;

/** Items reversed by this collection (late rows with a current item: changed or withdrawn lines). */
const SUPERSEDE = `update billing_item set superseded = true, updated_at = now()
  where id in (select current_id from billing_candidate where action = 'late' and current_id is not null)`;

const DELETE_WITHDRAWN = `delete from billing_item where id in (select current_id from billing_candidate where action = 'delete')`;

const UPDATE_ITEMS = `update billing_item i set rollup_id = r.id, source_version = c.source_version, occurred_at = c.occurred_at,
    product_category = c.product_category, vat_kind = c.vat_kind, vat_percent = c.vat_percent, vat_country = c.vat_country,
    description = c.description, quantity = c.quantity, unit = c.unit, unit_price = c.unit_price,
    amount_excl_vat = round(c.amount_excl_vat, 2), vat_amount_unrounded = c.vat_amount_unrounded, group_value = c.group_value,
    sub_items = c.sub_items, context = c.context, reference = c.reference, box_category_description = c.box_category_description,
    updated_at = now()
  from billing_candidate c join billing_rollup r on r.box_id = c.box_id and r.rollup_key = c.rollup_key
  where c.action = 'update' and i.id = c.current_id`;

const INSERT_ITEMS = `insert into billing_item (id, admin_id, box_id, rollup_id, source_kind, subject_id, line_key, source_version,
    entry, reverses_item_id, superseded, party_id, occurred_at, product_category, vat_kind, vat_percent, vat_country, currency,
    description, quantity, unit, unit_price, amount_excl_vat, vat_amount_unrounded, group_value, sub_items, context, reference,
    box_category_description, external_reference, input, created_at, updated_at)
  select t.item_id, t.admin_id, t.target_box_id, r.id, t.source_kind, t.subject_id, t.line_key, t.source_version, t.entry,
    t.reverses_item_id, false, t.party_id, t.occurred_at, t.product_category, t.vat_kind, t.vat_percent, t.vat_country, t.currency,
    t.description, t.quantity, t.unit, t.unit_price, round(t.amount_excl_vat, 2), t.vat_amount_unrounded, t.group_value,
    coalesce(t.sub_items, '[]'::jsonb), t.context, t.reference, t.box_category_description, t.external_reference, t.input, now(), now()
  from (${TARGETS}) t join billing_rollup r on r.box_id = t.target_box_id and r.rollup_key = t.rollup_key
  where t.action in ('new', 'late', 'reversal')`;

const RESULT = `select t.subject_id, t.line_key, coalesce(case when t.action = 'update' then t.current_id end, t.item_id) as item_id,
    t.target_box_id as box_id
  from (${TARGETS}) t where t.target_box_id is not null and t.action in ('new', 'late', 'update')`;

const TRACE = process.env.SVC_BILLING_TRACE === '1';
const EXPLAIN = process.env.SVC_BILLING_EXPLAIN === '1';

/** Runs one statement and answers its rows; with SVC_BILLING_TRACE=1 its duration goes to stderr (bench analysis). */
async function query<T extends object>(em: Em, sql: string, params: unknown[] = []): Promise<T[]> {
  const started = performance.now();
  let rows: T[] = [];
  if (EXPLAIN && !/^\s*(drop|analyze)/i.test(sql)) {
    const plan = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${sql}`, params);
    console.error(plan.map((r) => r['QUERY PLAN']).join('\n'));
    if (/^\s*select/i.test(sql)) rows = await em.execute<T[]>(sql, params);
  } else rows = await em.execute<T[]>(sql, params);
  if (TRACE) console.error(`  ${(performance.now() - started).toFixed(0).padStart(6)} ms  ${sql.trim().slice(0, 60).replace(/\s+/g, ' ')}`);
  return rows;
}

async function run(em: Em, sql: string, params: unknown[] = []): Promise<void> {
  await query(em, sql, params);
}

/** Whether any candidate is in one of `actions` (a statement for none is skipped: no plan to get wrong). */
async function any(em: Em, ...actions: string[]): Promise<boolean> {
  const [row] = await query<{ found: boolean }>(em, 'select exists (select 1 from billing_candidate where action = any(?::text[])) as found',
    [`{${actions.join(',')}}`]);
  return row.found;
}

export interface CollectOptions {
  /** false: no answer (a bulk collection). */
  answer?: boolean;
  /**
   * Subjects the candidates stand for completely (a recurring cost correction): their current lines
   * no candidate produces are withdrawn, also when no candidate of the subject is left at all.
   */
  subjects?: string[];
}

/** Places a source's candidates into boxes; run inside the transaction of the change that produced them. */
export async function collectItems(em: Em, kind: string, select: CandidateSelect, options: CollectOptions = {}): Promise<CollectResult> {
  if (!em.isInTransaction()) throw new Error('billing items are collected in the transaction of their change');
  await run(em, 'drop table if exists pg_temp.billing_candidate');
  const create = createCandidateTable(select, kind);
  await run(em, create.sql, create.params);
  // A temporary table has no statistics until analyzed: without them the planner loops.
  await run(em, 'analyze billing_candidate (action, series_id, party_id, period_from)');
  let [found] = await query<Summary>(em, SUMMARY);
  // The candidates' current items, when their subjects can have any.
  const inRange = found.low !== null && found.high !== null
    && (await query<{ found: boolean }>(em, ANY_BILLED_IN_RANGE, [kind, found.low, found.high]))[0].found;
  const covered = (options.subjects?.length ?? 0) > 0;
  // Subjects and lines are joined on only to compare with items.
  if (inRange || covered) await run(em, 'analyze billing_candidate (subject_id, line_key)');
  if (inRange) {
    await run(em, MARK_BILLED_SUBJECTS);
    await run(em, MARK_CURRENT);
    [found] = await query<Summary>(em, SUMMARY);
    if (found.new) await run(em, MARK_RETURNING, [kind]);
  }
  let changed = found.changed;
  // Lines to withdraw exist only for subjects billed before (or named as covered).
  if (found.billed || covered) {
    await run(em, addWithdrawn(covered), covered ? [kind, JSON.stringify(options.subjects)] : [kind]);
    changed ||= await any(em, 'changed');
  }
  if (found.same) await run(em, `delete from billing_candidate where action = 'same'`);
  let anyNew = found.new;
  if (found.changed) {
    const [split] = await query<{ moved: number }>(em, SPLIT_MOVED);
    anyNew ||= split.moved > 0;
  }
  if (changed) {
    await run(em, LOCK_CURRENT_BOXES);
    await run(em, UPDATE_IN_OPEN_BOXES);
  }
  let newLate = false;
  if (anyNew) {
    await run(em, 'drop table if exists pg_temp.billing_candidate_key');
    await run(em, NEW_KEYS);
    await run(em, 'analyze billing_candidate_key');
    await run(em, ENSURE_REVIEW_SETS);
    await run(em, TAKE_REVIEW_SET_TURNS);
    await run(em, LOCK_REVIEW_SETS);
    const [{ found: missing }] = await query<{ found: boolean }>(em, ANY_MISSING_BOX);
    if (missing) {
      await lockBoxNumbering(em, REVIEW_SETS_OF_MISSING_BOXES);
      await run(em, ENSURE_BOXES, [currentActor()]);
      noteEventsWritten();
    }
    await run(em, LOCK_OWN_BOXES);
    [{ found: newLate }] = await query<{ found: boolean }>(em, ANY_NEW_LATE);
    if (newLate) await run(em, MARK_NEW_LATE);
    await run(em, 'drop table billing_candidate_key');
  }
  if (changed) await run(em, MARK_LATE);
  // Late rows come from new rows whose box is not open, or from changed ones.
  const late = newLate || (changed && await any(em, 'late'));
  if (late) {
    await run(em, ADD_REVERSALS);
    await placeLateCandidates(em);
  }
  await run(em, ENSURE_ROLLUPS);
  // 'update' and 'delete' come from changed lines only.
  if (late || (changed && await any(em, 'update', 'delete'))) {
    await run(em, SUPERSEDE);
    await run(em, DELETE_WITHDRAWN);
    await run(em, UPDATE_ITEMS);
  }
  await run(em, INSERT_ITEMS);
  // A bulk collection (a backfill of many sessions) asks for no answer: it would hold every row in memory.
  const items = options.answer === false ? [] : await query<{ subject_id: string; line_key: string; item_id: string; box_id: string }>(em, RESULT);
  await run(em, 'drop table billing_candidate');
  return { items: [...items] };
}
