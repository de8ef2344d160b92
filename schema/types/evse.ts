import * as yup from 'yup';
import { POWER_TYPES, type Connector } from '../../src/cpo/evse.entity.ts';
import { evseList, evsesByIds, type EvseData } from '../../src/cpo/evse.queries.ts';
import { updateEvse, type EvseFields } from '../../src/cpo/save-evse.service.ts';
import { setDropoutAllChargesessions } from '../../src/sessions/reprocess.service.ts';
import { isDecimalText } from '../../src/money/decimal.ts';
import { oneOf, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { EvseLocation } from './cpo-reference-data.ts';
import { DateTime } from './date-time.ts';

const EvseConnector = builder.objectRef<Connector>('EvseConnector').implement({
  description: 'A connector of an EVSE (REST: an item of connectors).',
  fields: (t) => ({
    id: t.exposeString('id'),
    standard: t.string({ nullable: true, resolve: (c) => c.standard ?? null }),
    format: t.string({ nullable: true, resolve: (c) => c.format ?? null }),
    powerType: t.string({ nullable: true, description: `One of ${POWER_TYPES.join(', ')}.`, resolve: (c) => c.power_type ?? null }),
    maxPowerKw: t.string({ nullable: true, description: 'A decimal string.', resolve: (c) => c.max_power_kw ?? null }),
  }),
});

export const Evse = builder.loadableNode('Evse', {
  description: 'A charge point\'s EVSE, keyed by evseUid (REST: /cpo-evse/{evse_uid}).',
  id: { resolve: (e: EvseData) => e.id },
  cacheResolved: (e) => e.id,
  isTypeOf: (value) => isDataOf(value, 'Evse'),
  load: (ids: string[], context) => evsesByIds(context.em, ids) as Promise<EvseData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    evseUid: t.exposeString('evseUid'),
    adminId: t.string({ resolve: (e) => e.admin.id }),
    evseId: t.string({ nullable: true, resolve: (e) => e.evseId ?? null }),
    locationId: t.string({ nullable: true, description: 'The location_id of its location.', resolve: (e) => e.locationId }),
    location: t.field({ type: EvseLocation, nullable: true, resolve: (e) => e.location?.id ?? null }),
    connectors: t.field({ type: [EvseConnector], resolve: (e) => e.connectors ?? [] }),
    dropoutAllChargesessions: t.exposeBoolean('dropoutAllChargesessions', { description: 'Safe configuration mode: its sessions go to drop-out cases.' }),
    reimbursementMandatory: t.exposeBoolean('reimbursementMandatory'),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (e) => e.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (e) => e.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (e) => e.updatedAt }),
  }),
});

const EvseConnection = builder.connectionObject({ type: Evse, name: 'EvseConnection' }, { name: 'EvseEdge' });
const evseListRules = yup.object({ locationId: text(64).nullable() });

builder.queryFields((t) => ({
  evses: t.connection({
    type: Evse, description: 'EVSEs by id (REST: GET /cpo-evse); filters combine with AND.',
    args: {
      adminId: t.arg.id({ description: 'Only EVSEs of this administration (slug or global ID).' }),
      locationId: t.arg.string({ description: 'Only EVSEs of this location (its location_id).' }),
    },
    resolve: (_root, args, context) => {
      validate(evseListRules, { locationId: args.locationId });
      return listConnection<EvseData>(evseList(context.em, {
        adminId: args.adminId ? administrationKey(String(args.adminId)) : undefined, locationId: args.locationId || undefined,
      }), args);
    },
  }, EvseConnection),
}));

const ConnectorInput = builder.inputType('EvseConnectorInput', {
  fields: (t) => ({
    id: t.string({ required: true }),
    standard: t.string(),
    format: t.string(),
    powerType: t.string({ description: `One of ${POWER_TYPES.join(', ')}.` }),
    maxPowerKw: t.string({ description: 'A decimal string.' }),
  }),
});

const EvseInput = builder.inputType('EvseInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it.',
  fields: (t) => ({
    evseId: t.string({ description: 'The EVSE ID roaming sessions name ("NL*ABC*E123", separators optional); taken from an EVSE that held it.' }),
    locationId: t.string({ description: 'The location_id of a location of the same administration; null detaches.' }),
    connectors: t.field({ type: [ConnectorInput], description: 'Replaced as a whole; null empties the list.' }),
    dropoutAllChargesessions: t.boolean({ description: 'null is false. setEvseDropoutAll can also reprocess the drop-outs.' }),
    reimbursementMandatory: t.boolean({ description: 'null is false.' }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is refused (outdated).' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const evseRules = yup.object({
  evseId: text(64).nullable(),
  locationId: text(64).nullable(),
  connectors: yup.array(yup.object({
    id: text(36).defined('${path} is required'),
    standard: text(64),
    format: text(16),
    powerType: oneOf(POWER_TYPES),
    maxPowerKw: yup.string().test('decimal', '${path} must be a decimal string', (v) => v === undefined || isDecimalText(v)),
  }).defined()).max(32).nullable(),
});

/** A connector as stored (REST's members); absent and null members are left out. */
function connector(input: typeof ConnectorInput.$inferInput): Connector {
  const stored: Connector = { id: input.id };
  if (input.standard != null) stored.standard = input.standard;
  if (input.format != null) stored.format = input.format;
  if (input.powerType != null) stored.power_type = input.powerType;
  if (input.maxPowerKw != null) stored.max_power_kw = input.maxPowerKw;
  return stored;
}

function evsePatch(input: typeof EvseInput.$inferInput): Patch<EvseFields> {
  const withoutNulls = input.connectors?.map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null)));
  validate(evseRules, { ...input, connectors: withoutNulls });
  const { connectors, ...fields } = input;
  return { ...(fields as Patch<EvseFields>), ...(connectors !== undefined ? { connectors: connectors?.map(connector) ?? null } : {}) };
}

const EVSE_UID = 'The evse_uid of the EVSE.';

builder.mutationFields((t) => ({
  saveEvse: t.field({
    type: Evse, nullable: true,
    description: 'Merge-updates an EVSE, its connectors and its location (REST: POST /cpo-evse/{evse_uid}).',
    args: { evseUid: t.arg.string({ required: true, description: EVSE_UID }), input: t.arg({ type: EvseInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateEvse(em, args.evseUid, evsePatch(args.input))),
  }),
  setEvseDropoutAll: t.field({
    type: Evse, nullable: true,
    description: 'Switches safe configuration mode (REST: PUT /cpo-evse/{evse_uid}/dropout-all-chargesessions): while enabled, sessions '
      + 'at the EVSE go to a drop-out case; turning it off with reprocessDropouts retries the open drop-out cases of the EVSE.',
    args: {
      evseUid: t.arg.string({ required: true, description: EVSE_UID }),
      enabled: t.arg.boolean({ required: true }),
      reprocessDropouts: t.arg.boolean({ defaultValue: false }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) =>
      setDropoutAllChargesessions(em, args.evseUid, args.enabled, args.reprocessDropouts ?? false)),
  }),
}));
