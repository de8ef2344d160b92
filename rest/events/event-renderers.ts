// The `data` of events (src/events/event-renderers.ts): for each kind, what its GET answers. Most
// kinds call their GET route's own handler, so data and GET cannot drift; the kinds that set-based
// writers record by the batch (sessions, pricing results, billing boxes) load the batch with one
// query and use the GET's serializer. Registered by every composition root that changes data
// (the app, the worker thread, the CLI).
import type { Context } from 'koa';
import { SYSTEM_ACTOR } from '../../src/access/actor.ts';
import { boxDetails } from '../../src/billing/billing-box.queries.ts';
import { reimbursementLinksByIds } from '../../src/cpo/reimbursement.queries.ts';
import type { EventKindName } from '../../src/events/event-kinds.ts';
import { oneByOne, registerEventRenderers, type EventRenderer, type EventSerializer } from '../../src/events/event-renderers.ts';
import { isUuid } from '../../src/platform/ids.ts';
import type { Em } from '../../src/platform/orm.ts';
import { chargeSessionsByIds, pricingResultsByIds, type ChargeSessionData } from '../../src/sessions/charge-session.queries.ts';
import { serializeBox } from '../billing/billing-box-shape.ts';
import { serializeLink } from '../cpo/reimbursement.routes.ts';
import { serializeCustomer } from '../parties/customer.routes.ts';
import type { RouteDef } from '../rails/route.ts';
import { routes } from '../routes.ts';
import { serializeChargeSession, serializeCpoChargeSession, serializePricingResult } from '../sessions/session-serializers.ts';

/** The GET (of one resource) whose answer is the data of each kind rendered one at a time. */
const GET_OF: Partial<Record<EventKindName, string>> = {
  billing_address: '/billing-address/:id',
  cpo_charge_session_reimbursement: '/cpo-charge-session-reimbursement/:id',
  cpo_dropout_case: '/cpo-dropout-case/:id',
  cpo_evse: '/cpo-evse/:evse_uid',
  cpo_evse_location: '/cpo-evse-location/:location_id',
  cpo_reimbursement_arrangement: '/cpo-reimbursement-arrangement/:id',
  cpo_reimbursement_plan: '/cpo-reimbursement-plan/:id',
  cpo_subscription: '/cpo-subscription/:id',
  cpo_subscription_evse_link: '/cpo-subscription-evse-link/:id',
  cpo_subscription_plan: '/cpo-subscription-plan/:id',
  customer: '/customer/:id',
  direct_debit_mandate: '/direct-debit-mandate/:id',
  end_user: '/end-user/:id',
  instance: '/instance',
  msp_dropout_case: '/msp-dropout-case/:id',
  msp_roaming_command: '/msp-roaming-command/:id',
  msp_subscription_plan: '/msp-token-subscription-plan/:id',
  msp_token: '/msp-token/:evco_id',
  msp_token_link: '/msp-token-link/:id',
  msp_token_subscription: '/msp-token-subscription/:id',
  roaming_agreement: '/roaming-agreement/:id',
  roaming_connection: '/roaming-connection/:id',
  roaming_partner: '/roaming-partner/:id',
  webhook_subscription: '/webhook-subscription/:id',
};

/**
 * Kinds without a GET of one resource: their data is what identifies them (the lists that show
 * them: /customer/{id}/authorization..., /cpo-reimbursement-plan/{id}/calculation-input).
 */
export const IDENTIFIED_ONLY: EventKindName[] = ['cpo_calculation_input', 'end_user_authorization_customer', 'end_user_authorization_msp_token_subscription'];

/** The HTTP context of a GET that renders an event: there is no request, and a handler reading one fails saying so. */
const NO_REQUEST = new Proxy({}, {
  get: (_, member) => { throw new Error(`an event's data is rendered without an HTTP request (it read ctx.${String(member)})`); },
}) as Context;

function viaGet(path: string): EventRenderer {
  const route = routes.find((r: RouteDef) => r.method === 'get' && r.path === path);
  if (!route) throw new Error(`no GET ${path} to render events with`);
  const param = /:(\w+)$/.exec(path)?.[1];
  return oneByOne((em, id) => route.handler({
    body: undefined, query: {}, params: param ? { [param]: id } : {}, rawQuery: {}, em, actor: SYSTEM_ACTOR, ctx: NO_REQUEST,
  }));
}

const byId = <T extends { id: string }>(rows: T[], render: (row: T) => unknown) => new Map(rows.map((row) => [row.id, render(row)]));
const uuids = (ids: string[]) => ids.filter(isUuid);
const found = <T>(rows: (T | null)[]): T[] => rows.filter((row): row is T => row !== null);

/** The serializers of the kinds whose set-based writers render from the rows they hold (src/events/event-renderers.ts). */
const SERIALIZING = {
  msp_charge_session: serializeChargeSession,
  // The GET of a CPO session answers only CPO sessions.
  cpo_charge_session: (s: ChargeSessionData) => (s.source === 'cpo_charge_session' ? serializeCpoChargeSession(s) : undefined),
  msp_charge_session_priced: serializePricingResult,
} satisfies Partial<Record<EventKindName, EventSerializer>>;

/**
 * The kinds whose GET answers the entity's own columns as a flush writes them: their events are
 * rendered from those values when the flush is its transaction's only write (src/events/record-events.ts).
 */
const WRITTEN = {
  customer: serializeCustomer,
} satisfies Partial<Record<EventKindName, EventSerializer>>;

const rendered = <T extends { id: string }>(rows: T[], serialize: (row: T) => unknown) =>
  new Map([...byId(rows, serialize)].filter(([, data]) => data !== undefined));

const BATCHED: Partial<Record<EventKindName, EventRenderer>> = {
  msp_charge_session: async (em: Em, ids) => rendered(found(await chargeSessionsByIds(em, ids)), SERIALIZING.msp_charge_session),
  cpo_charge_session: async (em: Em, ids) => rendered(found(await chargeSessionsByIds(em, ids)), SERIALIZING.cpo_charge_session),
  msp_charge_session_priced: async (em: Em, ids) => rendered(found(await pricingResultsByIds(em, ids)), SERIALIZING.msp_charge_session_priced),
  billing_box: async (em: Em, ids) => byId(await boxDetails(em, uuids(ids)), serializeBox),
  // Listed, not fetched one by one: the link's representation of the list and of its writes.
  cpo_reimbursement_link: async (em: Em, ids) => byId(found(await reimbursementLinksByIds(em, ids)), serializeLink),
};

export function registerRestEventRenderers(): void {
  const renderers: Partial<Record<EventKindName, EventRenderer>> = { ...BATCHED };
  for (const [kind, path] of Object.entries(GET_OF)) renderers[kind as EventKindName] = viaGet(path);
  registerEventRenderers(renderers, SERIALIZING, WRITTEN);
}
