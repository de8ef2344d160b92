// Which subscription a token charges under at a moment: token -> link -> subscription -> plan.
// The rule ("Token validity" of the interface spec): a non-defunct link valid at the moment (a
// link without valid_from starts with its subscription) whose subscription is valid then and not
// defunct; the oldest such link decides. Token authorization resolves one (evco_id, moment) pair,
// session processing a whole batch: both with this one query. Rows are read as plain data and
// past the administration filter: whatever decides a token's validity counts.
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import { isLinkOwnValidAt, isLinkUsableAt } from '../platform/validity.ts';
import { evcoIdVariants } from './evco-id.ts';

export interface TokenAt { evcoId: string; at: Date }

export interface ResolvedToken { id: string; evcoId: string; currentAdminId: string; chargeAuthBlocked: boolean }

export interface ResolvedSubscription {
  id: string;
  externalReference: string | null;
  /** As stored (numeric text); the credit itself is read again under a lock where it is used. */
  monetaryCreditBalance: string;
  admin: { id: string; currency: string };
  customer: { id: string; chargeAuthBlocked: boolean };
  plan: { id: string; name: string; ratePlanId: string | null; useCustomerReimbursementVat: boolean; creditExcludedComponents: string[] };
}

/** What deciding a token's validity reads of a subscription (a list's validity reads no more). */
export interface SubscriptionKey { id: string; customer: { id: string; chargeAuthBlocked: boolean } }

export interface TokenResolution<S extends SubscriptionKey = ResolvedSubscription> {
  /** null: no token has this evco_id (in any accepted spelling). */
  token: ResolvedToken | null;
  /** The token's links valid at the moment, oldest first, each with its subscription. */
  currentLinks: { id: string; subscription: S }[];
  /** The subscription of the first current link that is itself valid then; null when there is none. */
  subscription: S | null;
}

// One row per non-defunct link of each token found (a token without links: one row, link null).
// Of the two spellings of an evco_id (without and with check digit) the first stored one wins.
const COLUMNS = `t.id as token_id, t.evco_id, t.current_admin_id, t.charge_auth_blocked,
    l.id as link_id, l.valid_from as link_from, l.valid_until as link_until,
    s.id as subscription_id, s.valid_from, s.valid_until, s.defunct, s.external_reference,
    s.monetary_credit_balance::text as monetary_credit_balance, s.admin_id, a.currency, s.customer_id,
    c.charge_auth_blocked as customer_blocked, p.id as plan_id, p.name as plan_name, p.rate_plan_id,
    p.use_customer_reimbursement_vat, p.credit_excluded_components`;
const LINKS = `left join msp_token_link l on l.token_id = t.id and not l.defunct
  left join msp_token_subscription s on s.id = l.subscription_id
  left join administration a on a.id = s.admin_id
  left join customer c on c.id = s.customer_id
  left join msp_subscription_plan p on p.id = s.plan_id`;
// Each spelling is an equality join (a hash join over a small token table, index probes over a
// large one; a lateral `in (v, w)` scanned a small table once per key, comparing citext).
const RESOLVE = `with keys as (select * from json_to_recordset($1::json) as r(k int, v citext, w citext))
  select r.k, ${COLUMNS}
  from (select distinct on (m.k) m.k, m.token_id from (
      select r.k, 0 as spelling, t.id as token_id from keys r join msp_token t on t.evco_id = r.v
      union all
      select r.k, 1, t.id from keys r join msp_token t on t.evco_id = r.w) m
    order by m.k, m.spelling) r
  join msp_token t on t.id = r.token_id
  ${LINKS}
  order by r.k, l.created_at, l.id`;
// The same rows for tokens already found (a list's page, for their validity): by id, no spellings
// to try, and only what the decision reads (a page's 500 tokens and their links, with no plan,
// administration or credit to read and parse). The bounds come as milliseconds since the epoch
// (floored, as a timestamp's text is read: postgres-date takes the fraction's first three digits):
// a number is a Date at once, where the text of four bounds a link took longer to parse than the
// rest of the row.
const epochMs = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`;
const RESOLVE_BY_ID = `select t.id as token_id, t.evco_id, t.current_admin_id, t.charge_auth_blocked,
    l.id as link_id, ${epochMs('l.valid_from')} as link_from, ${epochMs('l.valid_until')} as link_until,
    s.id as subscription_id, ${epochMs('s.valid_from')} as valid_from, ${epochMs('s.valid_until')} as valid_until, s.defunct, s.customer_id,
    c.charge_auth_blocked as customer_blocked
  from msp_token t
  left join msp_token_link l on l.token_id = t.id and not l.defunct
  left join msp_token_subscription s on s.id = l.subscription_id
  left join customer c on c.id = s.customer_id
  where t.id = any($1::uuid[])
  order by t.id, l.created_at, l.id`;

interface Row {
  token_id: string; evco_id: string; current_admin_id: string; charge_auth_blocked: boolean;
  link_id: string | null; link_from: string | number | Date | null; link_until: string | number | Date | null;
  subscription_id: string; valid_from: string | number | Date; valid_until: string | number | Date | null; defunct: boolean; external_reference: string | null;
  monetary_credit_balance: string; admin_id: string; currency: string; customer_id: string; customer_blocked: boolean;
  plan_id: string; plan_name: string; rate_plan_id: string | null; use_customer_reimbursement_vat: boolean; credit_excluded_components: string[] | null;
}

/** A non-defunct link (the query reads no others): its own bounds, its subscription's validity. */
interface Link<S extends SubscriptionKey = ResolvedSubscription> {
  id: string;
  validity: { validFrom: Date | null; validUntil: Date | null; defunct: false };
  subscription: S;
  subscriptionValidity: { validFrom: Date; validUntil: Date | null; defunct: boolean };
}
interface Found<S extends SubscriptionKey = ResolvedSubscription> { token: ResolvedToken; links: Link<S>[] }

/** The columns of RESOLVE_BY_ID. */
type ValidityRow = Pick<Row, 'token_id' | 'evco_id' | 'current_admin_id' | 'charge_auth_blocked' | 'link_id' | 'link_from' | 'link_until'
  | 'subscription_id' | 'valid_from' | 'valid_until' | 'defunct' | 'customer_id' | 'customer_blocked'>;

const date = (value: string | number | Date | null) => (value === null ? null : new Date(value));

function linkOf(row: Row): Link {
  return { ...linkKeyOf(row), subscription: subscriptionOf(row) };
}

/** A link with its bounds and its subscription's key (RESOLVE_BY_ID). */
function linkKeyOf(row: ValidityRow): Link<SubscriptionKey> {
  return {
    id: row.link_id!, validity: { validFrom: date(row.link_from), validUntil: date(row.link_until), defunct: false },
    subscriptionValidity: { validFrom: date(row.valid_from)!, validUntil: date(row.valid_until), defunct: row.defunct },
    subscription: { id: row.subscription_id, customer: { id: row.customer_id, chargeAuthBlocked: row.customer_blocked } },
  };
}

function subscriptionOf(row: Row): ResolvedSubscription {
  return {
    id: row.subscription_id, externalReference: row.external_reference, monetaryCreditBalance: row.monetary_credit_balance,
    admin: { id: row.admin_id, currency: row.currency },
    customer: { id: row.customer_id, chargeAuthBlocked: row.customer_blocked },
    plan: {
      id: row.plan_id, name: row.plan_name, ratePlanId: row.rate_plan_id, useCustomerReimbursementVat: row.use_customer_reimbursement_vat,
      creditExcludedComponents: row.credit_excluded_components ?? [],
    },
  };
}

function decide<S extends SubscriptionKey>(found: Found<S> | undefined, at: Date): TokenResolution<S> {
  if (!found) return { token: null, currentLinks: [], subscription: null };
  // src/platform/validity.ts: the link in its own interval (from its valid_from, else the
  // subscription's), then the first whose subscription is valid then too (isLinkUsableAt).
  const current = found.links.filter((link) => isLinkOwnValidAt(link.validity, link.subscriptionValidity, at));
  const holding = current.find((link) => isLinkUsableAt(link.validity, link.subscriptionValidity, at));
  return {
    token: found.token,
    currentLinks: current.map((link) => ({ id: link.id, subscription: link.subscription })),
    subscription: holding?.subscription ?? null,
  };
}

/** The resolution of each pair, in the order given; one query however many pairs (none for none). */
export async function resolveTokens(em: Em, pairs: TokenAt[]): Promise<TokenResolution[]> {
  const keys = [...new Set(pairs.map((pair) => pair.evcoId))];
  const found = new Map<number, Found>();
  if (keys.length) {
    const lookups = keys.map((evcoId, k) => {
      const [v, w = null] = evcoIdVariants(evcoId);
      return { k, v, w };
    });
    collect(await boundQuery<Row & { k: number }>(em, RESOLVE, [JSON.stringify(lookups)]), (row) => row.k, found, linkOf);
  }
  const indexOf = new Map(keys.map((evcoId, k) => [evcoId, k]));
  return pairs.map((pair) => decide(found.get(indexOf.get(pair.evcoId)!), pair.at));
}

/**
 * The resolution at `at` of each token named by its id (tokens a list has read), by id, with each
 * subscription's key only (what deciding validity reads); a token not found is left out.
 */
export async function resolveTokensById(em: Em, ids: readonly string[], at: Date): Promise<Map<string, TokenResolution<SubscriptionKey>>> {
  const found = new Map<string, Found<SubscriptionKey>>();
  if (ids.length) collect(await boundQuery<ValidityRow>(em, RESOLVE_BY_ID, [ids]), (row) => row.token_id, found, linkKeyOf);
  return new Map([...found].map(([id, entry]) => [id, decide(entry, at)]));
}

/** Rows (one per link, ordered) grouped into each token's entry under `key`. */
function collect<R extends ValidityRow, K, S extends SubscriptionKey>(rows: R[], key: (row: R) => K, found: Map<K, Found<S>>, link: (row: R) => Link<S>): void {
  for (const row of rows) {
    let entry = found.get(key(row));
    if (!entry) {
      entry = { token: { id: row.token_id, evcoId: row.evco_id, currentAdminId: row.current_admin_id, chargeAuthBlocked: row.charge_auth_blocked }, links: [] };
      found.set(key(row), entry);
    }
    if (row.link_id !== null) entry.links.push(link(row));
  }
}

export async function resolveToken(em: Em, evcoId: string, at: Date): Promise<TokenResolution> {
  return (await resolveTokens(em, [{ evcoId, at }]))[0];
}
