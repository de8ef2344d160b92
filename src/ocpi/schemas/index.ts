// Every OCPI 2.2.1 object this service sends or accepts, by name: the one list validate.ts compiles.
import { cdrSchema } from './cdr.ts';
import { commandResponseSchema, commandResultSchema, startSessionSchema, stopSessionSchema } from './commands.ts';
import { arrayOf } from './common.ts';
import { credentialsSchema } from './credentials.ts';
import { envelopeSchema } from './envelope.ts';
import { sessionPatchSchema, sessionSchema } from './session.ts';
import { pricedTariffSchema, tariffSchema } from './tariff.ts';
import { tokenSchema } from './token.ts';
import { versionDetailsSchema, versionListSchema } from './version.ts';

export const OCPI_SCHEMAS = {
  versions: versionListSchema,
  versionDetails: versionDetailsSchema,
  credentials: credentialsSchema,
  cdr: cdrSchema,
  cdrs: arrayOf(cdrSchema),
  session: sessionSchema,
  sessionPatch: sessionPatchSchema,
  sessions: arrayOf(sessionSchema),
  tariff: tariffSchema,
  tariffs: arrayOf(tariffSchema),
  pricedTariff: pricedTariffSchema,
  token: tokenSchema,
  tokens: arrayOf(tokenSchema),
  commandResponse: commandResponseSchema,
  commandResult: commandResultSchema,
  startSession: startSessionSchema,
  stopSession: stopSessionSchema,
  envelope: envelopeSchema(),
} as const;

export type OcpiSchemaName = keyof typeof OCPI_SCHEMAS;
