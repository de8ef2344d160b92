// POST /charge-session-batch (extension, issue 25): up to 1,000 sessions of POST /charge-session in
// one request, each checked and stored as that operation does, the new ones with one statement per 500.
import { ingestSessions } from '../../src/sessions/ingest-session.service.ts';
import type { SessionSubmission } from '../../src/sessions/session-submission.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { itemFailure, readItems } from '../rails/batch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { chargeSessionBody, requiredSubmission } from './session-body.ts';
import { serializeReceipt } from './session-serializers.ts';
import { sessionBatchShape } from './session-shapes.ts';

export const MAX_BATCH_SESSIONS = 1000;
/**
 * 5 MiB: 5 KB a session on average (a plain one is 0.4 KB, one with 24 charge periods 2.5 KB), each
 * within the 1 MiB of a single body. Reading 5 MiB of sessions costs seconds of CPU (decisions.md).
 */
export const MAX_BATCH_BODY_BYTES = 5 * 1024 * 1024;

export const chargeSessionBatchRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/charge-session-batch', tag: 'MSP charge sessions', extension: true,
    summary: 'Submit charge sessions in a batch',
    description: `1 to ${MAX_BATCH_SESSIONS} bodies of POST /charge-session in an array (at most 5 MiB in all, each at most 1 MiB), `
      + 'each checked, stored and answered as that operation does, resubmissions included: one result per session, in order, the '
      + 'receipt or the 400 Error body with its param below the session (`$[3].total_energy_kwh`). One session\'s failure leaves the '
      + 'others as they are; the answer is 200 whatever the sessions\' results. A body that is not such an array is 400 for the whole. '
      + 'Sending the same batch again stores nothing twice.',
    bodyItems: { schema: chargeSessionBody, max: MAX_BATCH_SESSIONS }, maxBodyBytes: MAX_BATCH_BODY_BYTES,
    response: sessionBatchShape,
    handler: async ({ em, body }) => {
      const read = await readItems(chargeSessionBody, body as unknown[], (checked, raw) => requiredSubmission('charge_session', checked, raw));
      const ingested = await ingestSessions(em, read.filter((item): item is SessionSubmission => !(item instanceof DomainError)));
      let next = 0;
      const results = read.map((item, index) => {
        const outcome = item instanceof DomainError ? item : ingested[next++];
        return outcome instanceof DomainError ? itemFailure(outcome, index) : serializeReceipt(outcome);
      });
      return { results };
    },
  }),
];
