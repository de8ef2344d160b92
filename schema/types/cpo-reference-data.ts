import * as yup from 'yup';
import { evseLocationList, evseLocationsByIds, type EvseLocationData } from '../../src/cpo/evse.queries.ts';
import { reimbursementPlans, reimbursementPlansByIds, type ReimbursementPlanData } from '../../src/cpo/reimbursement.queries.ts';
import { saveEvseLocation, type EvseLocationFields } from '../../src/cpo/save-evse-location.service.ts';
import { createReimbursementPlan, updateReimbursementPlan, type PlanInput } from '../../src/cpo/reimbursement-plan.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { coordinate, countryCode, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { administrationKey, refFromArg } from '../ids.ts';
import { inArgument, inArguments } from '../errors.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

export const EvseLocation = builder.loadableNode('EvseLocation', {
  description: 'A location holding EVSEs (REST: /cpo-evse-location/{location_id}).',
  id: { resolve: (l: EvseLocationData) => l.id },
  cacheResolved: (l) => l.id,
  isTypeOf: (value) => isDataOf(value, 'EvseLocation'),
  load: (ids: string[], context) => evseLocationsByIds(context.em, ids) as Promise<EvseLocationData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    locationId: t.exposeString('locationId'),
    adminId: t.string({ resolve: (l) => l.admin.id }),
    name: t.string({ nullable: true, resolve: (l) => l.name ?? null }),
    street: t.string({ nullable: true, description: 'REST: address.street.', resolve: (l) => l.street ?? null }),
    postalCode: t.string({ nullable: true, description: 'REST: address.postal_code.', resolve: (l) => l.postalCode ?? null }),
    city: t.string({ nullable: true, resolve: (l) => l.city ?? null }),
    country: t.string({ nullable: true, resolve: (l) => l.country ?? null }),
    latitude: t.string({ nullable: true, description: 'A decimal string.', resolve: (l) => (l.latitude ? normalize(l.latitude) : null) }),
    longitude: t.string({ nullable: true, description: 'A decimal string.', resolve: (l) => (l.longitude ? normalize(l.longitude) : null) }),
    cpoId: t.string({ nullable: true, resolve: (l) => l.cpoId ?? null }),
    timeZone: t.string({ nullable: true, resolve: (l) => l.timeZone ?? null }),
    deactivatedAt: t.field({ type: DateTime, nullable: true, resolve: (l) => l.deactivatedAt ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (l) => l.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (l) => l.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (l) => l.updatedAt }),
  }),
});

export const ReimbursementPlan = builder.loadableNode('ReimbursementPlan', {
  description: 'How charger owners are reimbursed (REST: /cpo-reimbursement-plan).',
  id: { resolve: (p: ReimbursementPlanData) => p.id },
  cacheResolved: (p) => p.id,
  isTypeOf: (value) => isDataOf(value, 'ReimbursementPlan'),
  load: (ids: string[], context) => reimbursementPlansByIds(context.em, ids) as Promise<ReimbursementPlanData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (p) => p.admin.id }),
    name: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (p) => p.description ?? null }),
    mode: t.exposeString('mode', { description: 'cpms_supplied or calculated.' }),
    components: t.exposeStringList('components'),
    script: t.string({ nullable: true, description: 'A rule script run after the components; it reads the custom variables as input.variables.', resolve: (p) => p.script ?? null }),
    publishFrom: t.field({ type: DateTime, nullable: true, resolve: (p) => p.publishFrom ?? null }),
    publishUntil: t.field({ type: DateTime, nullable: true, resolve: (p) => p.publishUntil ?? null }),
    externalReference: t.string({ nullable: true, resolve: (p) => p.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (p) => p.updatedAt }),
  }),
});

const EvseLocationConnection = builder.connectionObject({ type: EvseLocation, name: 'EvseLocationConnection' }, { name: 'EvseLocationEdge' });

builder.queryFields((t) => ({
  evseLocations: t.connection({
    type: EvseLocation, description: 'EVSE locations by id (REST: GET /cpo-evse-location).',
    resolve: (_root, args, context) => listConnection<EvseLocationData>(evseLocationList(context.em), args),
  }, EvseLocationConnection),
  reimbursementPlans: t.field({
    type: [ReimbursementPlan], extensions: { listEstimate: 1000 },
    description: 'The reimbursement plans (not paged, as REST GET /cpo-reimbursement-plan; at most 1,000).',
    resolve: (_root, _args, context) => reimbursementPlans(context.em),
  }),
}));

const EvseLocationInput = builder.inputType('EvseLocationInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. The address members of REST '
    + '(street, postalCode, city, country) are fields of their own here. Creating needs adminId.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Needed on creation; ignored on update.' }),
    name: t.string(),
    street: t.string(),
    postalCode: t.string(),
    city: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code.' }),
    latitude: t.string({ description: 'A decimal string within ±90, at most 6 decimals: "52.090737".' }),
    longitude: t.string({ description: 'A decimal string within ±180, at most 6 decimals.' }),
    cpoId: t.string(),
    timeZone: t.string({ description: 'An IANA time zone: Europe/Amsterdam.' }),
    deactivatedAt: t.field({ type: DateTime }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is refused (outdated).' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const locationRules = yup.object({
  adminId: text(64).nullable(), name: text().nullable(), street: text().nullable(), postalCode: text(32).nullable(), city: text().nullable(),
  country: countryCode().nullable(), latitude: coordinate().nullable(), longitude: coordinate().nullable(), cpoId: text(32).nullable(),
  timeZone: text(64).nullable(),
});

function locationPatch(input: typeof EvseLocationInput.$inferInput): Patch<EvseLocationFields> & { adminId?: string } {
  const { adminId, ...fields } = input;
  validate(locationRules, { ...fields, adminId });
  return { ...(fields as Patch<EvseLocationFields>), ...(typeof adminId === 'string' ? { adminId: administrationKey(adminId) } : {}) };
}

const ReimbursementPlanInput = builder.inputType('ReimbursementPlanInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs adminId and name '
    + '(mode defaults to calculated, components to [energy]).',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Set on creation only; ignored on update.' }),
    name: t.string(),
    description: t.string(),
    mode: t.string({ description: 'cpms_supplied or calculated.' }),
    components: t.stringList({ description: 'energy, time, parking_time, flat or custom; replaced as a whole.' }),
    script: t.string({ description: 'A rule script (at most 10,000 characters) run after the components; null removes it.' }),
    publishFrom: t.field({ type: DateTime }),
    publishUntil: t.field({ type: DateTime, description: 'After publishFrom.' }),
    externalReference: t.string({ description: 'Unique in the instance.' }),
  }),
});

const planRules = yup.object({
  adminId: text(64).nullable(), name: text().nullable(), description: text(10000).nullable(), mode: text(32).nullable(),
  components: yup.array(text(32).defined()).max(20).nullable(), script: text(10000).nullable(), externalReference: externalRef().nullable(),
});

function planInput(input: typeof ReimbursementPlanInput.$inferInput): PlanInput {
  validate(planRules, input);
  const { adminId, ...fields } = input;
  return { ...fields, ...(typeof adminId === 'string' ? { adminId: administrationKey(adminId) } : {}) } as PlanInput;
}

/** A plan named by its global ID or its REST id. */
export const planId = (raw: string | number) => {
  const ref = refFromArg(String(raw), 'ReimbursementPlan', false);
  return 'id' in ref ? ref.id : String(raw);
};

builder.mutationFields((t) => ({
  saveEvseLocation: t.field({
    type: EvseLocation, nullable: true,
    description: 'Creates the EVSE location with this location_id, or merge-updates it when the caller sees it '
      + '(REST: POST /cpo-evse-location, POST /cpo-evse-location/{location_id}). A location_id held by an administration the caller cannot see '
      + 'is taken: duplicate at $.locationId.',
    args: {
      locationId: t.arg.string({ required: true, description: 'The location_id EVSEs name.' }),
      input: t.arg({ type: EvseLocationInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, null, async (em) => {
      try {
        return await saveEvseLocation(em, args.locationId, locationPatch(args.input));
      } catch (error) {
        // The service's location_id is the field argument locationId; every other member is below input.
        if (!(error instanceof DomainError)) throw error;
        throw error.fieldPath?.[0] === 'location_id' ? inArguments(error) : inArgument(error, 'input');
      }
    }),
  }),
  createReimbursementPlan: t.field({
    type: ReimbursementPlan, nullable: true,
    description: 'Creates a reimbursement plan (REST: POST /cpo-reimbursement-plan).',
    args: { input: t.arg({ type: ReimbursementPlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createReimbursementPlan(em, planInput(args.input))),
  }),
  updateReimbursementPlan: t.field({
    type: ReimbursementPlan, nullable: true,
    description: 'Merge-updates a reimbursement plan (REST: POST /cpo-reimbursement-plan/{id}).',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), input: t.arg({ type: ReimbursementPlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateReimbursementPlan(em, planId(args.id), planInput(args.input))),
  }),
}));
