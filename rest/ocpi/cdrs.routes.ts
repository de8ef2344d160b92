// OCPI cdrs module, eMSP receiver: POST a CDR (src/ocpi/receive-cdr.service.ts), checked as
// POST /charge-session checks its body (rest/sessions/session-body.ts), its strings as /main/v1
// checks a body's (rest/rails/input-guards.ts: no control character in an id, uid, contract_id ...).
import { validate } from '../../src/platform/input-validation.ts';
import { receiveCdr } from '../../src/ocpi/receive-cdr.service.ts';
import { checkBodyStrings } from '../rails/input-guards.ts';
import { chargeSessionBody, submissionFrom } from '../sessions/session-body.ts';
import type { OcpiRoute } from './ocpi-router.ts';

export const cdrRoutes: OcpiRoute[] = [
  {
    method: 'post', path: '/2.2.1/emsp/cdrs',
    handler: async ({ em, peer, body }) => {
      // Never null: the CDR schema requires total_energy, which always becomes total_energy_kwh.
      // The strings are checked in the CDR as sent (its member names); a failure keeps it as an invalid CDR.
      await receiveCdr(em, peer, body, (mapped) => {
        checkBodyStrings(body);
        return submissionFrom('charge_session', validate(chargeSessionBody, mapped), mapped)!;
      });
      return {};
    },
  },
];
