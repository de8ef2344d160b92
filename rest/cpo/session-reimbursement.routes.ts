// GET /cpo-charge-session-reimbursement[/{id}]: what EVSE owners are reimbursed per CPO session
// and arrangement (src/cpo/session-reimbursement.entity.ts).
import * as yup from 'yup';
import { isUuid } from '../../src/platform/ids.ts';
import { normalize } from '../../src/money/decimal.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import {
  getSessionReimbursement, sessionReimbursementList, type SessionReimbursementData,
} from '../../src/cpo/session-reimbursement.queries.ts';
import { subtotalFields } from '../pricing/cost-calculation.routes.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { reportedChargePeriods, reportedChargePeriodShape } from '../sessions/reported-shapes.ts';

const TAG = 'CPO charge sessions';
const uuidQuery = () => yup.string().test('uuid', '${path} must be an id', (value) => value === undefined || isUuid(value));

export const sessionReimbursementShape = representation('CpoChargeSessionReimbursement', {
  id: t.string(),
  admin_id: t.string(),
  charge_session_id: t.string(),
  arrangement_id: t.string(),
  arrangement_external_reference: t.nullable(t.string()),
  arrangement_reference: t.nullable(t.string()),
  plan_id: t.nullable(t.string()),
  mode: t.string(),
  customer_id: t.string(),
  customer_external_reference: t.nullable(t.string()),
  version: t.integer(),
  currency_code: t.string(),
  start_date_time: t.timestamp(),
  end_date_time: t.timestamp(),
  total_amount_excl_vat: t.decimal(),
  total_vat_amount: t.decimal(),
  total_amount_incl_vat: t.decimal(),
  vat_country: t.string(),
  vat_kind: t.string(),
  vat_percentage: t.decimal(),
  subtotals: t.array(representation('ReimbursementSubtotal', subtotalFields)),
  charging_periods: t.array(reportedChargePeriodShape),
  tariff_code: t.nullable(t.string()),
  evse: t.object({
    evse_uid: t.string(),
    evse_id: t.nullable(t.string()),
    location_id: t.nullable(t.string()),
    connector_id: t.nullable(t.string()),
    address: t.nullable(t.object({ street: t.nullable(t.string()), postal_code: t.nullable(t.string()), city: t.nullable(t.string()), country: t.nullable(t.string()) })),
  }),
  explanation: t.array(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeSessionReimbursement(r: SessionReimbursementData): Infer<typeof sessionReimbursementShape> {
  return {
    id: r.id,
    admin_id: r.admin.id,
    charge_session_id: r.sessionId,
    arrangement_id: r.arrangementId,
    arrangement_external_reference: r.arrangementExternalReference ?? null,
    arrangement_reference: r.arrangementExternalReference ?? null,
    plan_id: r.planId ?? null,
    mode: r.mode,
    customer_id: r.customerId,
    customer_external_reference: r.customerExternalReference ?? null,
    version: r.version,
    currency_code: r.currency,
    start_date_time: iso(r.startAt)!,
    end_date_time: iso(r.endAt)!,
    total_amount_excl_vat: r.totalExclVat,
    total_vat_amount: r.totalVat,
    total_amount_incl_vat: r.totalInclVat,
    vat_country: r.vatCountry,
    vat_kind: r.vatKind,
    vat_percentage: normalize(r.vatPercent),
    subtotals: r.subtotals,
    charging_periods: reportedChargePeriods(r.chargingPeriods),
    tariff_code: r.tariffCode ?? null,
    evse: r.evse,
    explanation: r.explanation,
    created_at: iso(r.createdAt)!,
    updated_at: iso(r.updatedAt)!,
  };
}

export const sessionReimbursementRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/cpo-charge-session-reimbursement', tag: TAG, summary: 'List CPO charge session reimbursements', paged: true,
    response: sessionReimbursementShape,
    description: 'One record per CPO session and reimbursement arrangement valid at its start, ordered by id. Filters (AND): '
      + 'charge_session_id, arrangement_id, customer_id, evse_uid. `arrangement_reference` is the deprecated name of arrangement_external_reference.',
    query: yup.object({ charge_session_id: uuidQuery(), arrangement_id: uuidQuery(), customer_id: uuidQuery(), evse_uid: yup.string().max(64) }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: sessionReimbursementList(em, {
        chargeSessionId: query.charge_session_id, arrangementId: query.arrangement_id, customerId: query.customer_id, evseUid: query.evse_uid || undefined,
      }),
      rawQuery, path: '/main/v1/cpo-charge-session-reimbursement', createdGt: true, serialize: serializeSessionReimbursement,
    }),
  }),
  defineRoute({
    method: 'get', path: '/cpo-charge-session-reimbursement/:id', tag: TAG, summary: 'Get a CPO charge session reimbursement',
    response: sessionReimbursementShape,
    handler: async ({ em, params }) => serializeSessionReimbursement(await getSessionReimbursement(em, params.id)),
  }),
];
