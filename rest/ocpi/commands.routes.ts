// OCPI commands module, eMSP side: the CPO's CommandResult to the response_url of a command we sent.
import { receiveCommandResult } from '../../src/ocpi/receive-command-result.service.ts';
import type { OcpiRoute } from './ocpi-router.ts';

export const commandRoutes: OcpiRoute[] = [
  {
    method: 'post', path: '/2.2.1/emsp/commands/:command/:uid',
    handler: async ({ em, peer, params, body }) => { await receiveCommandResult(em, peer, params.command, params.uid, body); return {}; },
  },
];
