// The one interface of item sources (billing's own in sources/: MSP sessions, subscription fees,
// custom items; the areas above billing keep theirs: src/cpo/ CPO subscription fees and
// reimbursements, src/roaming/ roaming): a source says what to bill as candidate rows, the core
// (collect-items.ts) places them into boxes and roll-ups. Sources know nothing of boxes.
import type { PartyKind } from './billing-box.entity.ts';

/** One line a source wants billed; amounts are exact decimals with the seller's sign (positive = revenue). */
export interface ItemCandidate {
  admin_id: string;
  party_id: string;
  /** What the item bills (a session id, `<subscription>/<period>/<cost>`, a custom item's key). */
  subject_id: string;
  /** Several lines of one subject (e.g. one per VAT rate of a session); '' when one. */
  line_key: string;
  source_version: number;
  occurred_at: string;
  product_category: string;
  vat_kind: string;
  vat_percent: string;
  vat_country: string;
  currency: string;
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  amount_excl_vat: string;
  vat_amount_unrounded: string;
  group_subscription: string | null;
  group_token: string | null;
  sub_items: { kind: string; label: string; volume: string; unit: string; amount_excl_vat: string }[];
  context: string | null;
  reference: string | null;
  box_category_description: string | null;
  distinct_code: string | null;
  /** Picks the series by code (custom items' series_indicator_code); else the series billing this source. */
  series_code: string | null;
  external_reference: string | null;
  input: Record<string, unknown> | null;
}

/** Candidate rows as SQL: a select returning exactly the ItemCandidate columns. */
export interface CandidateSelect {
  sql: string;
  params: unknown[];
  /** Who the candidates' party_id names (billing-box.entity.ts PARTY_KINDS); every row carries it. Default `customer`. */
  partyKind?: PartyKind;
}

export const CANDIDATE_COLUMNS = `admin_id text, party_id uuid, subject_id text, line_key text, source_version int,
  occurred_at timestamptz, product_category text, vat_kind text, vat_percent numeric, vat_country text, currency text,
  description text, quantity numeric, unit text, unit_price numeric, amount_excl_vat numeric, vat_amount_unrounded numeric,
  group_subscription text, group_token text, sub_items jsonb, context text, reference text, box_category_description text,
  distinct_code text, series_code text, external_reference text, input jsonb`;

/** Candidates computed in memory (few rows: fees, custom items). */
export function candidateRows(rows: ItemCandidate[]): CandidateSelect {
  return { sql: `select * from jsonb_to_recordset(?::jsonb) as x(${CANDIDATE_COLUMNS})`, params: [JSON.stringify(rows)] };
}
