// Session ingestion (POST /charge-session, POST /cpo-charge-session) and the MSP session lists.
import {
  chargeSessionList, getChargeSession, getCpoChargeSession, getPricingResult, pricingResultList,
} from '../../src/sessions/charge-session.queries.ts';
import * as yup from 'yup';
import { DomainError } from '../../src/platform/errors.ts';
import { isUuid } from '../../src/platform/ids.ts';
import { SESSION_STATUSES } from '../../src/sessions/charge-session.entity.ts';
import { ingestSession } from '../../src/sessions/ingest-session.service.ts';
import { repriceSession } from '../../src/sessions/reprocess.service.ts';
import { seekPage } from '../rails/pagination.ts';
import type { SeekList } from '../../src/platform/seek-page.ts';
import { SessionProgressList, type ProgressRow } from '../../src/sessions/session-progress.queries.ts';
import { CPO_SESSION_REPORTED_FIELDS, SESSION_REPORTED_FIELDS } from '../../src/sessions/session-reported.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { isoDate, oneOf, timestamp } from '../../src/platform/input-schemas.ts';
import { chargeSessionBody, cpoChargeSessionBody, requiredSubmission } from './session-body.ts';
import {
  serializeChargeSession, serializeCpoChargeSession, serializeOriginal, serializePricingResult, serializeProgress, serializeReceipt,
} from './session-serializers.ts';
import {
  chargeSessionShape, cpoChargeSessionShape, originalSessionShape, pricingResultShape, sessionProgressShape, sessionReceiptShape,
} from './session-shapes.ts';

const TAG = 'MSP charge sessions';
const uuidQuery = () => yup.string().test('uuid', '${path} must be an id', (value) => value === undefined || isUuid(value));

const INGEST = 'Stored as received and priced asynchronously (GET /msp-charge-session/{id} shows the status). The same session '
  + '(its identity: {identity}) sent again is stored once: with the same content (parsed values) the answer names the stored '
  + 'session with duplicate: true; with other content a session not priced yet (waiting or dropped out) takes the new data and is '
  + 'processed again, a priced one answers 400 conflicting_resubmission naming the first differing field. Energy is '
  + 'total_energy_kwh, else the sum of the energy volumes of charge_periods; only the energy dimension is accepted. Amounts and '
  + 'volumes are decimal strings. A session that contradicts itself is 400 naming the field: total_idle_seconds more than the '
  + 'session lasts, a charge period starting after end_date_time, total_energy_kwh more than 0.01 kWh from the periods\' energy.';

function ingestRoute(path: string, source: 'charge_session' | 'cpo_charge_session', body: yup.ObjectSchema<any>, identity: string): RouteDef {
  return defineRoute({
    method: 'post', path, tag: TAG, summary: `Submit a charge session (${path})`, description: INGEST.replace('{identity}', identity), body,
    response: sessionReceiptShape,
    handler: async ({ em, body: parsed, ctx }) => serializeReceipt(await ingestSession(em, requiredSubmission(source, parsed, ctx.state.body as Record<string, unknown>))),
  });
}

export const chargeSessionRoutes: RouteDef[] = [
  ingestRoute('/charge-session', 'charge_session', chargeSessionBody, 'cpo_id and session_id'),
  ingestRoute('/cpo-charge-session', 'cpo_charge_session', cpoChargeSessionBody, 'evse_uid and session_id'),
  defineRoute({
    method: 'get', path: '/cpo-charge-session', tag: TAG, summary: 'List CPO charge sessions', paged: true, response: cpoChargeSessionShape,
    description: 'Ordered by id (creation). Filters (combined with AND): status, evse_uid, location_id, dropout_case_id, '
      + 'start_from and start_until (the start in [start_from, start_until)).',
    query: yup.object({
      status: oneOf(SESSION_STATUSES), evse_uid: yup.string().max(64), location_id: yup.string().max(64), dropout_case_id: uuidQuery(),
      start_from: timestamp(), start_until: timestamp(),
    }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: chargeSessionList(em, {
        source: 'cpo_charge_session', status: query.status, evseUid: query.evse_uid || undefined, locationId: query.location_id || undefined,
        dropoutCaseId: query.dropout_case_id, startFrom: isoDate(query.start_from) ?? undefined, startUntil: isoDate(query.start_until) ?? undefined,
      }, CPO_SESSION_REPORTED_FIELDS),
      rawQuery, path: '/main/v1/cpo-charge-session', createdGt: true, serialize: serializeCpoChargeSession,
    }),
  }),
  defineRoute({
    method: 'get', path: '/cpo-charge-session/:id', tag: TAG, summary: 'Get a CPO charge session', response: cpoChargeSessionShape,
    handler: async ({ em, params }) => serializeCpoChargeSession(await getCpoChargeSession(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session', tag: TAG, summary: 'List MSP charge sessions', paged: true, response: chargeSessionShape,
    description: 'Ordered by id (creation). Filters: status, dropout_case_id, subscription_id.',
    query: yup.object({ status: oneOf(SESSION_STATUSES), dropout_case_id: uuidQuery(), subscription_id: uuidQuery() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: chargeSessionList(em, { status: query.status, dropoutCaseId: query.dropout_case_id, subscriptionId: query.subscription_id }, SESSION_REPORTED_FIELDS),
      rawQuery, path: '/main/v1/msp-charge-session', createdGt: true, serialize: serializeChargeSession,
    }),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session/:id', tag: TAG, summary: 'Get an MSP charge session', response: chargeSessionShape,
    handler: async ({ em, params }) => serializeChargeSession(await getChargeSession(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/msp-charge-session/:id/reprice', tag: TAG, graphql: 'repriceChargeSession', summary: 'Price a session again', extension: true,
    response: chargeSessionShape,
    description: 'Sends the session through the pipeline again: a new pricing result with the next version (earlier ones are kept), '
      + 'or a drop-out. Credit used by the earlier result is released first. It takes no body (the members of one are ignored and '
      + 'named in X-SVC-Unknown-Fields).',
    handler: async ({ em, params }) => serializeChargeSession(await repriceSession(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session-priced', tag: TAG, summary: 'List pricing results', paged: true, response: pricingResultShape,
    description: 'Every pricing result, in order of creation (a session\'s versions in order). Filter: charge_session_id. '
      + 'The details query parameter was removed from the interface: it is answered with 400 removed_parameter.',
    query: yup.object({ charge_session_id: uuidQuery() }),
    handler: async ({ ctx, em, rawQuery, query }) => {
      if (rawQuery.details !== undefined) {
        throw new DomainError('removed_parameter', 'the details query parameter was removed from the interface; results always hold their subtotals', { queryParam: 'details' });
      }
      return seekPage(ctx, {
        list: pricingResultList(em, { chargeSessionId: query.charge_session_id }), rawQuery, path: '/main/v1/msp-charge-session-priced',
        createdGt: true, serialize: serializePricingResult,
      });
    },
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session-priced/:id', tag: TAG, summary: 'Get a pricing result', response: pricingResultShape,
    handler: async ({ em, params }) => serializePricingResult(await getPricingResult(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session-original', tag: TAG, summary: 'List sessions as received', paged: true,
    response: originalSessionShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, { list: chargeSessionList(em), rawQuery, path: '/main/v1/msp-charge-session-original', serialize: serializeOriginal }),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session-original/:id', tag: TAG, summary: 'Get a session as received', response: originalSessionShape,
    handler: async ({ em, params }) => serializeOriginal(await getChargeSession(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/msp-charge-session-progress', tag: TAG, summary: 'Processing progress of sessions', paged: true,
    response: sessionProgressShape,
    description: 'Every MSP charge session, and the sessions a CPO reports over OCPI while they run (session_status charging, or '
      + 'awaiting_cdr once completed) until their CDR arrives as a charge session; ordered by id (creation).',
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      // SessionProgressList pages like a SeekList (has, page, keyOf, firstCreatedAfter) over two tables.
      list: new SessionProgressList(em) as unknown as SeekList<ProgressRow>, rawQuery, path: '/main/v1/msp-charge-session-progress', serialize: serializeProgress,
    }),
  }),
];
