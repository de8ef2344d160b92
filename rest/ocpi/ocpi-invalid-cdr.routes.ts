// Admin extension: CDRs a CPO pushed that were refused (OCPI schema or the pipeline's basic checks),
// as received with the reason; resolved once a corrected CDR with the same id passed.
import * as yup from 'yup';
import { booleanFilter, iso, uuid } from '../../src/platform/input-schemas.ts';
import { ocpiInvalidCdrList, type OcpiInvalidCdrData } from '../../src/ocpi/ocpi-invalid-cdr.queries.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t } from '../rails/shape.ts';

export const ocpiInvalidCdrShape = representation('OcpiInvalidCdr', {
  id: t.string(),
  roaming_connection_id: t.string(),
  cdr_id: t.nullable(t.string()),
  reason: t.string(),
  body: t.raw('The CDR as received (it failed the OCPI checks: any members).'),
  received_at: t.timestamp(),
  resolved: t.boolean(),
  resolved_at: t.nullable(t.timestamp()),
  charge_session_id: t.nullable(t.string('The charge session the corrected CDR became.')),
});

function serialize(r: OcpiInvalidCdrData) {
  return {
    id: r.id, roaming_connection_id: r.roamingConnectionId, cdr_id: r.cdrId ?? null, reason: r.reason,
    body: (typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body) ? r.body : { value: r.body }) as Record<string, unknown>,
    received_at: iso(r.createdAt), resolved: r.resolvedAt != null, resolved_at: iso(r.resolvedAt ?? null), charge_session_id: r.chargeSessionId ?? null,
  };
}

export const ocpiInvalidCdrRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/ocpi-invalid-cdr', tag: 'OCPI', extension: true, paged: true, response: ocpiInvalidCdrShape,
    summary: 'List invalid CDRs received over OCPI',
    description: 'Ordered by id (receipt). Filters: roaming_connection_id, resolved (true or false).',
    query: yup.object({ roaming_connection_id: uuid(), resolved: booleanFilter() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: ocpiInvalidCdrList(em, { roamingConnectionId: query.roaming_connection_id, resolved: query.resolved === undefined ? undefined : query.resolved === 'true' }),
      rawQuery, path: '/main/v1/ocpi-invalid-cdr', serialize,
    }),
  }),
];
