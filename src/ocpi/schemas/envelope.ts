// The OCPI 2.2.1 response envelope: every answer of every module, around the module's data.
import { dateTime, type JsonSchema } from './common.ts';

export function envelopeSchema(data?: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      ...(data ? { data } : {}),
      status_code: { type: 'integer', minimum: 1000, maximum: 4999 },
      status_message: { type: 'string' },
      timestamp: dateTime,
    },
    required: ['status_code', 'timestamp'],
    additionalProperties: data ? false : true,
  };
}

export interface OcpiEnvelope<T = unknown> { data?: T; status_code: number; status_message?: string; timestamp: string }
