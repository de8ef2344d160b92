import * as yup from 'yup';
import { REPROCESS_INSTRUCTIONS, DROPOUT_STATUSES } from '../../src/sessions/dropout-case.entity.ts';
import { dropoutCaseList } from '../../src/sessions/dropout-case.queries.ts';
import { getVisibleDropoutCase, reprocessDropoutCase } from '../../src/sessions/reprocess.service.ts';
import { VALIDITY_CHECKS } from '../../src/sessions/validity-checks.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { oneOf } from '../../src/platform/input-schemas.ts';
import { serializeDropoutCase } from './session-serializers.ts';
import { dropoutCaseShape } from './session-shapes.ts';

const TAG = 'MSP charge sessions';

export const dropoutCaseRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-dropout-case', tag: TAG, summary: 'List drop-out cases', paged: true, response: dropoutCaseShape,
    description: 'Sessions that could not be priced, grouped by reason (and administration and detail). Resolved cases are kept. '
      + 'Filters: status, reason. The sessions of a case: GET /msp-charge-session?dropout_case_id=.',
    query: yup.object({ status: oneOf(DROPOUT_STATUSES), reason: yup.string() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: dropoutCaseList(em, { status: query.status, reason: query.reason || undefined }), rawQuery, path: '/main/v1/msp-dropout-case',
      serialize: serializeDropoutCase,
    }),
  }),
  defineRoute({
    method: 'get', path: '/msp-dropout-case/:id', tag: TAG, summary: 'Get a drop-out case', response: dropoutCaseShape,
    handler: async ({ em, params }) => serializeDropoutCase(await getVisibleDropoutCase(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/msp-dropout-case/:id/reprocess', tag: TAG, summary: 'Reprocess the sessions of a drop-out case', extension: true,
    response: dropoutCaseShape,
    description: `instruction retry: price again; bypass: price again skipping the validity checks named in bypass_checks (${VALIDITY_CHECKS.join(', ')}); `
      + 'discard: the sessions are discarded. The case is resolved (and kept); sessions failing again open a new case.',
    body: yup.object({
      instruction: oneOf(REPROCESS_INSTRUCTIONS).defined('${path} is required'),
      bypass_checks: yup.array(oneOf(VALIDITY_CHECKS).defined()).max(VALIDITY_CHECKS.length),
    }),
    handler: async ({ em, params, body }) => serializeDropoutCase(await reprocessDropoutCase(em, params.id, {
      instruction: body.instruction, bypassChecks: body.bypass_checks,
    })),
  }),
];
