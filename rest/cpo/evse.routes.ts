import { evseList, getEvse, type EvseData } from '../../src/cpo/evse.queries.ts';
import * as yup from 'yup';
import { POWER_TYPES } from '../../src/cpo/evse.entity.ts';
import { createEvse, updateEvse, type EvseFields } from '../../src/cpo/save-evse.service.ts';
import { setDropoutAllChargesessions } from '../../src/sessions/reprocess.service.ts';
import { isDecimalText } from '../../src/money/decimal.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'CPO EVSEs';

export const evseShape = representation('Evse', {
  id: t.string(),
  evse_uid: t.string(),
  admin_id: t.string(),
  evse_id: t.nullable(t.string()),
  location_id: t.nullable(t.string()),
  connectors: t.array(t.object({
    id: t.string(),
    standard: t.optional(t.string()),
    format: t.optional(t.string()),
    power_type: t.optional(t.string()),
    max_power_kw: t.optional(t.decimal()),
  })),
  dropout_all_chargesessions: t.boolean(),
  reimbursement_mandatory: t.boolean(),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeEvse(e: EvseData): Infer<typeof evseShape> {
  return {
    id: e.id,
    evse_uid: e.evseUid,
    admin_id: e.admin.id,
    evse_id: e.evseId ?? null,
    location_id: e.locationId,
    connectors: e.connectors ?? [],
    dropout_all_chargesessions: e.dropoutAllChargesessions,
    reimbursement_mandatory: e.reimbursementMandatory,
    external_updated_at: iso(e.externalUpdatedAt),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}

const connector = yup.object({
  id: text(36).defined('${path} is required'),
  standard: text(64),
  format: text(16),
  power_type: oneOf(POWER_TYPES),
  max_power_kw: yup.string().test('decimal', '${path} must be a decimal string', (v) => v === undefined || isDecimalText(v)),
});

const evseBody = yup.object({
  evse_id: text(64).nullable(),
  location_id: text(64).nullable(),
  connectors: yup.array(connector.defined()).max(32).nullable(),
  dropout_all_chargesessions: yup.boolean().nullable(),
  reimbursement_mandatory: yup.boolean().nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  evse_id: 'evseId',
  location_id: 'locationId',
  connectors: 'connectors',
  dropout_all_chargesessions: 'dropoutAllChargesessions',
  reimbursement_mandatory: 'reimbursementMandatory',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const patch = (body: Record<string, unknown>) => patchFrom(body, MAPPING) as Patch<EvseFields>;

export const evseRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/cpo-evse', tag: TAG, summary: 'List EVSEs (with connectors)', paged: true, response: evseShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, { list: evseList(em), rawQuery, path: '/main/v1/cpo-evse', serialize: serializeEvse }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-evse', tag: TAG, summary: 'Create an EVSE', deprecated: true, response: evseShape,
    description: 'evse_uid identifies the EVSE; evse_id ("NL*ABC*E123", separators optional) is what roaming sessions name.',
    body: evseBody.shape({ evse_uid: text(64).defined('${path} is required'), admin_id: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serializeEvse(await createEvse(em, { ...patch(body), evseUid: body.evse_uid, adminId: body.admin_id })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-evse/:evse_uid', tag: TAG, summary: 'Get an EVSE (with connectors)', response: evseShape,
    handler: async ({ em, params }) => serializeEvse(await getEvse(em, params.evse_uid)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-evse/:evse_uid', tag: TAG, graphql: 'saveEvse', summary: 'Merge-update an EVSE', body: evseBody, response: evseShape,
    handler: async ({ em, params, body }) => serializeEvse(await updateEvse(em, params.evse_uid, patch(body))),
  }),
  defineRoute({
    method: 'put', path: '/cpo-evse/:evse_uid/dropout-all-chargesessions', tag: TAG, graphql: 'setEvseDropoutAll', summary: 'Switch safe configuration mode',
    response: evseShape,
    description: 'While dropout_all_chargesessions is on, sessions at the EVSE go to a drop-out case. Turning it off with '
      + 'reprocess_dropouts: true retries the open drop-out cases of the EVSE.',
    body: yup.object({ dropout_all_chargesessions: yup.boolean().defined('${path} is required'), reprocess_dropouts: yup.boolean() }),
    handler: async ({ em, params, body }) => serializeEvse(await setDropoutAllChargesessions(em, params.evse_uid, body.dropout_all_chargesessions, body.reprocess_dropouts ?? false)),
  }),
];
