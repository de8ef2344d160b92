// Drop-out cases of both sides: /msp-dropout-case (pricing the driver's side) and
// /cpo-dropout-case (matching and reimbursing CPO sessions), with the same reprocessing.
import * as yup from 'yup';
import { REPROCESS_INSTRUCTIONS, DROPOUT_STATUSES, type DropoutSide } from '../../src/sessions/dropout-case.entity.ts';
import { dropoutCaseList, getDropoutCase } from '../../src/sessions/dropout-case.queries.ts';
import { DROPOUT_REASONS } from '../../src/session-processing/dropout-reasons.ts';
import { reprocessDropoutCase } from '../../src/sessions/reprocess.service.ts';
import { VALIDITY_CHECKS } from '../../src/sessions/validity-checks.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { oneOf } from '../../src/platform/input-schemas.ts';
import { serializeCpoDropoutCase, serializeDropoutCase } from './session-serializers.ts';
import { cpoDropoutCaseShape, dropoutCaseShape } from './session-shapes.ts';

const SIDES = {
  msp: {
    path: '/msp-dropout-case', tag: 'MSP charge sessions', shape: dropoutCaseShape, serialize: serializeDropoutCase, evseFilter: false,
    description: 'Sessions that could not be priced, grouped by reason (and administration and detail). Resolved cases are kept. '
      + 'Filters: status, reason. The sessions of a case: GET /msp-charge-session?dropout_case_id=.',
  },
  cpo: {
    path: '/cpo-dropout-case', tag: 'CPO charge sessions', shape: cpoDropoutCaseShape, serialize: serializeCpoDropoutCase, evseFilter: true,
    description: 'CPO sessions that could not be matched (evse_not_found, location_not_found, connector_not_found: after the '
      + 'retries), whose EVSE is being configured, failing a validity check or whose reimbursement could not be calculated, '
      + 'grouped by reason, administration and EVSE. Filters: status, reason, evse_uid. The sessions of a case: GET /cpo-charge-session?dropout_case_id=.',
  },
} as const;

function dropoutRoutes(side: DropoutSide): RouteDef[] {
  const { path, tag, shape, serialize, description } = SIDES[side];
  return [
    defineRoute({
      method: 'get', path, tag, summary: 'List drop-out cases', paged: true, response: shape, description,
      query: yup.object({ status: oneOf(DROPOUT_STATUSES), reason: oneOf(DROPOUT_REASONS), ...(side === 'cpo' ? { evse_uid: yup.string() } : {}) }),
      handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
        list: dropoutCaseList(em, { side, status: query.status, reason: query.reason || undefined, evseUid: (query as { evse_uid?: string }).evse_uid || undefined }),
        rawQuery, path: `/main/v1${path}`, createdGt: side === 'cpo', serialize,
      }),
    }),
    defineRoute({
      method: 'get', path: `${path}/:id`, tag, summary: 'Get a drop-out case', response: shape,
      handler: async ({ em, params }) => serialize(await getDropoutCase(em, params.id, side)),
    }),
    defineRoute({
      method: 'post', path: `${path}/:id/reprocess`, tag, graphql: 'reprocessDropoutCase', summary: 'Reprocess the sessions of a drop-out case', extension: true, response: shape,
      description: `instruction retry: process again (CPO sessions are matched again with fresh attempts); bypass: process again skipping the `
        + `validity checks named in bypass_checks (${VALIDITY_CHECKS.join(', ')}); discard: the sessions are discarded. The case is resolved `
        + '(and kept); sessions failing again open a new case.',
      body: yup.object({
        instruction: oneOf(REPROCESS_INSTRUCTIONS).defined('${path} is required'),
        bypass_checks: yup.array(oneOf(VALIDITY_CHECKS).defined()).max(VALIDITY_CHECKS.length),
      }),
      handler: async ({ em, params, body }) => serialize(await reprocessDropoutCase(em, params.id, {
        instruction: body.instruction, bypassChecks: body.bypass_checks,
      }, side)),
    }),
  ];
}

export const dropoutCaseRoutes: RouteDef[] = dropoutRoutes('msp');
export const cpoDropoutCaseRoutes: RouteDef[] = dropoutRoutes('cpo');
