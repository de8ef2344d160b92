import { DROPOUT_SIDES, DROPOUT_STATUSES, REPROCESS_INSTRUCTIONS } from '../../src/sessions/dropout-case.entity.ts';
import * as yup from 'yup';
import { oneOf } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { DROPOUT_REASONS } from '../../src/session-processing/dropout-reasons.ts';
import { reprocessDropoutCase } from '../../src/sessions/reprocess.service.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { dropoutCaseList, dropoutCasesByIds, type DropoutCaseData } from '../../src/sessions/dropout-case.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { enumOf } from '../enum.ts';
import { refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

const DropoutStatus = enumOf('DropoutCaseStatus', DROPOUT_STATUSES, 'OPEN until the case is reprocessed; resolved cases are kept.');
const DropoutSide = enumOf('DropoutCaseSide', DROPOUT_SIDES, 'MSP: pricing the driver\'s side (REST /msp-dropout-case); CPO: matching and reimbursing CPO sessions (REST /cpo-dropout-case).');
const ReprocessInstruction = enumOf('ReprocessInstruction', REPROCESS_INSTRUCTIONS,
  'RETRY prices again; BYPASS prices again skipping the named validity checks; DISCARD discards the sessions.');

export const DropoutCase = builder.loadableNode('DropoutCase', {
  description: 'Sessions that could not be processed, grouped by reason (REST: /msp-dropout-case, /cpo-dropout-case).',
  id: { resolve: (c: DropoutCaseData) => c.id },
  cacheResolved: (c) => c.id,
  isTypeOf: (value) => isDataOf(value, 'DropoutCase'),
  load: (ids: string[], context) => dropoutCasesByIds(context.em, ids) as Promise<DropoutCaseData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this case in the REST API.' }),
    reason: t.exposeString('reason', { description: 'A stable code, e.g. unknown_token or validity_plausible_energy.' }),
    message: t.exposeString('message'),
    side: t.field({ type: DropoutSide, resolve: (c) => c.side }),
    evseUid: t.string({ nullable: true, description: 'CPO cases: the EVSE the sessions name.', resolve: (c) => c.evseUid ?? null }),
    status: t.field({ type: DropoutStatus, resolve: (c) => c.status }),
    sessionCount: t.exposeInt('sessionCount'),
    resolution: t.field({ type: ReprocessInstruction, nullable: true, resolve: (c) => c.resolution ?? null }),
    resolvedAt: t.field({ type: DateTime, nullable: true, resolve: (c) => c.resolvedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (c) => c.createdAt }),
  }),
});

/** The reason filter takes the reasons REST's does (an unknown one is validation_failed at $.reason). */
const filterRules = yup.object({ reason: oneOf(DROPOUT_REASONS) });

const DropoutCaseConnection = builder.connectionObject({ type: DropoutCase, name: 'DropoutCaseConnection' }, { name: 'DropoutCaseEdge' });

const caseId = (id: string | number) => {
  const ref = refFromArg(String(id), 'DropoutCase', false);
  return 'id' in ref ? ref.id : '';
};

builder.queryFields((t) => ({
  dropoutCases: t.connection({
    type: DropoutCase,
    description: 'Drop-out cases by id (REST: GET /msp-dropout-case, GET /cpo-dropout-case).',
    args: {
      side: t.arg({ type: DropoutSide, description: 'Only cases of this side (both when absent).' }),
      status: t.arg({ type: DropoutStatus }), reason: t.arg.string({ description: `Only cases of this reason: ${DROPOUT_REASONS.join(', ')}.` }),
      evseUid: t.arg.string({ description: 'Only CPO cases of this EVSE.' }),
    },
    resolve: (_root, args, context) => {
      validate(filterRules, { reason: args.reason ?? undefined });
      return listConnection<DropoutCaseData>(dropoutCaseList(context.em, {
        side: args.side ?? undefined, status: args.status ?? undefined, reason: args.reason || undefined, evseUid: args.evseUid || undefined,
      }), args);
    },
  }, DropoutCaseConnection),
}));

builder.mutationFields((t) => ({
  reprocessDropoutCase: t.field({
    type: DropoutCase,
    nullable: true,
    description: 'Resolves the case and retries, bypasses checks for, or discards its sessions (REST: POST /msp-dropout-case/{id}/reprocess, /cpo-dropout-case/{id}/reprocess).',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      instruction: t.arg({ type: ReprocessInstruction, required: true }),
      bypassChecks: t.arg.stringList({ description: 'With BYPASS: start_before_end, plausible_energy, end_in_past, not_too_old.' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => reprocessDropoutCase(em, caseId(args.id), {
      instruction: args.instruction, bypassChecks: args.bypassChecks ?? undefined,
    })),
  }),
}));
