// The catalogue of error codes: every `code` a client can see, what it means and the HTTP status
// of the REST answer that carries it (decisions.md "Errors": a client error is 400, whatever its
// code). docs/errors.md lists exactly these (test/src/platform/error-codes.test.ts). A code
// clients see is never renamed; DomainError only takes codes from here.

export interface ErrorCodeEntry {
  /** HTTP status of a REST answer with this code (GraphQL: see the field errors in docs/errors.md). */
  status: 400 | 401 | 403 | 404 | 405 | 429 | 500 | 503;
  meaning: string;
}

export const ERROR_CODES = {
  // The request itself
  validation_failed: { status: 400, meaning: 'A body member (or query parameter) fails its schema: missing, wrong type, unknown enum value, too long; `details` lists every failed check.' },
  invalid_input: { status: 400, meaning: 'A value is well-formed but not acceptable here (a decimal that is not one, a window that ends before it starts, a rule that does not hold).' },
  invalid_json: { status: 400, meaning: 'The body is not strict JSON (syntax, duplicate member, nesting too deep, a NUL character).' },
  invalid_utf8: { status: 400, meaning: 'The body is not valid UTF-8.' },
  invalid_query: { status: 400, meaning: 'A query parameter is malformed, repeated or not offered by this endpoint.' },
  invalid_path: { status: 400, meaning: 'A path segment of the URL is too long or holds control characters.' },
  removed_parameter: { status: 400, meaning: 'A query parameter that the interface no longer has.' },
  unsupported_content_type: { status: 400, meaning: 'The body is not `application/json`.' },
  body_too_large: { status: 400, meaning: 'The body exceeds the size limit.' },
  body_incomplete: { status: 400, meaning: 'The request body ended before its announced length.' },
  // Records
  not_found: { status: 400, meaning: 'The named record does not exist or lies outside what the credential may see (both answered alike).' },
  duplicate: { status: 400, meaning: 'A value that must be unique (external reference, id, EVCO id, username, ...) is taken, or listed twice.' },
  outdated: { status: 400, meaning: '`external_updated_at` is older than the stored one: the change is stale.' },
  administration_mismatch: { status: 400, meaning: 'Two records of the request belong to different administrations.' },
  currency_mismatch: { status: 400, meaning: 'A rate plan and an administration have different currencies.' },
  // Contracts and validity
  overlapping_mandate: { status: 400, meaning: 'The validity of the direct debit mandate overlaps another one of the customer.' },
  overlapping_token_link: { status: 400, meaning: 'The token is linked to another subscription in that period (one at a time).' },
  overlapping_evse_link: { status: 400, meaning: 'The EVSE is linked to the CPO subscription in that period already.' },
  overlapping_vat_rate: { status: 400, meaning: 'The validity overlaps a VAT rate of the same country and kind.' },
  mandate_defunct: { status: 400, meaning: 'A defunct direct debit mandate cannot change or become valid again.' },
  authorization_defunct: { status: 400, meaning: 'A defunct end-user authorization cannot become valid again.' },
  subscription_defunct: { status: 400, meaning: 'The token subscription is defunct: it cannot change, get tokens or be fulfilled.' },
  subscription_not_current: { status: 400, meaning: 'The token subscription has not started yet or has ended: it cannot switch plan now, or (ended by a plan-or-customer correction that moved its credit on) take a credit grant.' },
  token_link_defunct: { status: 400, meaning: 'A defunct token link cannot change.' },
  reimbursement_arrangement_defunct: { status: 400, meaning: 'A defunct reimbursement arrangement cannot change.' },
  cpo_subscription_defunct: { status: 400, meaning: 'A defunct CPO subscription cannot change or get EVSE links.' },
  cpo_subscription_link_defunct: { status: 400, meaning: 'A defunct CPO subscription EVSE link cannot change.' },
  roaming_agreement_defunct: { status: 400, meaning: 'A defunct roaming agreement cannot change.' },
  overlapping_roaming_agreement: { status: 400, meaning: 'The validity overlaps another live roaming agreement of the same connection and role, or another live cpo agreement of the same partner.' },
  reimbursement_link_defunct: { status: 400, meaning: 'A defunct reimbursement link cannot change.' },
  already_activated: { status: 400, meaning: 'The token is activated already.' },
  already_revoked: { status: 400, meaning: 'The credential is revoked already.' },
  token_series_exhausted: { status: 400, meaning: 'The token series has no free number left.' },
  form_factor_not_fulfilable: { status: 400, meaning: 'Tokens of this form factor are not fulfilled (physically issued).' },
  insufficient_credit: { status: 400, meaning: 'The monetary credit balance would go below zero.' },
  credit_limit: { status: 400, meaning: 'The monetary credit balance would reach 10^14, more than the ledger holds.' },
  // Pricing and sessions
  rate_plan_missing: { status: 400, meaning: 'The subscription plan has no rate plan to price with.' },
  rate_plan_version_missing: { status: 400, meaning: 'The rate plan has no version valid at that moment.' },
  rate_plan_not_shared: { status: 400, meaning: 'The rate plan is not shared with the administration.' },
  vat_rate_missing: { status: 400, meaning: 'No VAT rate of that country and kind is valid at that moment.' },
  rule_script_failed: { status: 400, meaning: 'The script of a rate plan rule failed (error, budget, wrong result).' },
  conflicting_resubmission: { status: 400, meaning: 'A session sent again with other content after it was priced or discarded; `param` names the first difference.' },
  session_discarded: { status: 400, meaning: 'A discarded session is not priced again.' },
  dropout_case_resolved: { status: 400, meaning: 'The drop-out case is resolved already.' },
  // Billing
  invalid_state: { status: 400, meaning: 'The billing box or review-set is not in a state that allows the operation; `message` names its state.' },
  billing_not_configured: { status: 400, meaning: 'The administration has no billing series that bills this kind of item.' },
  document_missing: { status: 400, meaning: 'The box has no such document (yet).' },
  // Access and transport
  unauthorized: { status: 401, meaning: 'Missing or wrong credentials (`WWW-Authenticate: Basic realm="main"`).' },
  forbidden: { status: 403, meaning: 'The credential lacks the permission for this operation.' },
  route_not_found: { status: 404, meaning: 'No operation has this URL pattern.' },
  method_not_allowed: { status: 405, meaning: 'The path exists, the method does not.' },
  rate_limited: { status: 429, meaning: 'The credential exceeded its request rate (`Retry-After`).' },
  internal_error: { status: 500, meaning: 'A failure of the service itself; never caused by what a client sent.' },
  service_unavailable: { status: 503, meaning: 'The database cannot be reached or did not answer within the request\'s bound (`SVC_REQUEST_DB_TIMEOUT_MS`, 5 s, waits for locks included); `Retry-After`; the service recovers by itself.' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Codes only the GraphQL API uses (extensions.code), with the HTTP status of its answer; domain
 * failures keep their catalogue code there too.
 */
export const GRAPHQL_ERROR_CODES = {
  UNAUTHENTICATED: { status: 401, meaning: 'Missing or wrong credentials.' },
  FORBIDDEN: { status: 403, meaning: 'The credential may only read and sent a mutation, asked an App credential for more than `viewer` and the App API mutations, asked an Admin credential for `viewer` or an App API mutation, or is not an admin credential without an administration limit and listed or managed API credentials.' },
  RATE_LIMITED: { status: 429, meaning: 'The credential exceeded its request rate (`Retry-After`).' },
  QUERY_TOO_COMPLEX: { status: 400, meaning: 'The operation exceeds a limit checked before execution (tokens, aliases, depth, page size, estimated records).' },
  QUERY_TIMEOUT: { status: 200, meaning: 'The query ran longer than its time limit and was stopped (while it waited for the database: `SERVICE_UNAVAILABLE`, HTTP 503).' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'The database cannot be reached or did not answer within the request\'s bound (`Retry-After`).' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type GraphQLErrorCode = keyof typeof GRAPHQL_ERROR_CODES;
