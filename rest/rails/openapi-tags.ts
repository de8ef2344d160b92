// The tags of the OpenAPI document, each with what its operations are about (redocly's
// tag-description rule; test/rest/rails/openapi-lint.test.ts). A route's `tag` must be one of these.
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Instance: 'The instance\'s own settings (roaming calculation) and sellers: data every administration shares.',
  Administrations: 'Administrations: the business units data belongs to, each with its currency, country and seller.',
  Customers: 'Customers of an administration, with custom fields and charge-authorization blocks.',
  'Billing addresses': 'Billing addresses of customers (and other parties), named by party_id or party_external_reference.',
  'Direct debit mandates': 'SEPA direct debit mandates of customers: IBAN/BIC checks, one valid mandate at a time.',
  Roaming: 'Roaming partners, connections and agreements (shared by every administration), and what roaming sessions cost.',
  OCPI: 'The OCPI 2.2.1 side seen from /main/v1: peers and their registration, CDRs that failed the checks.',
  'MSP roaming commands': 'Start and stop commands sent to a CPO over OCPI, and their results.',
  'End users': 'End users of an end-user site and their authorizations over customers and subscriptions.',
  'MSP tokens': 'Charge tokens (EVCO ids), token series, brands, fulfilment, activation and virtual tokens.',
  'MSP token subscriptions': 'Subscriptions of customers to plans, their monetary credit and plan-or-customer corrections.',
  'MSP token links': 'Which token belongs to which subscription, and when.',
  'MSP subscription plans': 'Subscription plans: the rate plan a subscription prices by, fees and credit.',
  'Pricing: VAT rates': 'VAT rates per country, kind and validity (shared by every administration).',
  'Pricing: rate plans': 'Rate plans, their immutable versions (rates and rules) and what a session would cost.',
  'MSP charge sessions': 'Charge sessions of the MSP side: ingestion, reads, pricing results, repricing and drop-out cases.',
  'CPO charge sessions': 'Charge sessions at our chargers: ingestion, matching to EVSEs, reimbursement and drop-out cases.',
  'CPO EVSEs': 'Locations, EVSEs and connectors, and the safe configuration switch.',
  'CPO reimbursement': 'Reimbursement plans, arrangements and their EVSE links, calculation inputs and what sessions are reimbursed.',
  'CPO subscriptions': 'CPO subscriptions and plans (fees per EVSE) and their EVSE links.',
  'Billing configuration': 'Per administration: billing settings, series, product categories, exchange rates, and the backfill of a first series.',
  Billing: 'Boxes, roll-ups and items; review-sets and their transitions; documents (PDF, UBL); custom items; delivery states.',
  Events: 'The audit trail of changes and webhook subscriptions that deliver them, signed.',
  'App API': 'The App API for end users\' apps, under /{end_user_id}/ with an app credential: their customers, subscriptions, sessions, '
    + 'billing boxes and documents, nearby EVSEs. Its paths begin with a parameter, as the interface specification defines them, so a path '
    + 'such as /{end_user_id}/msp-evse-group has the shape of an Admin API path such as /customer/{id}: the Admin API paths, whose first '
    + 'segment is fixed, are matched first, and an end user id never equals an Admin API resource name.',
};
