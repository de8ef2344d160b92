import * as yup from 'yup';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { createRatePlan, upsertRatePlan, type RatePlanFields } from '../../src/pricing/rate-plan.service.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { currencyCode } from '../../src/money/currency.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { findRatePlan, ratePlanList, ratePlansByIds, type RatePlanData } from '../../src/pricing/rate-plan.queries.ts';
import { administrationKey, refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

export const RatePlan = builder.loadableNode('RatePlan', {
  description: 'Rates in one currency, shared with administrations of that currency; its rates are in versions.',
  id: { resolve: (plan: RatePlanData) => plan.id },
  cacheResolved: (plan) => plan.id,
  isTypeOf: (value) => isDataOf(value, 'RatePlan'),
  load: (ids: string[], context) => ratePlansByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this rate plan in the REST API.' }),
    name: t.exposeString('name'),
    currency: t.exposeString('currency', { description: 'ISO 4217 currency code.' }),
    adminIds: t.stringList({
      description: 'The slugs of the administrations it is shared with; empty: every administration of the currency.',
      resolve: (plan) => plan.adminIds,
    }),
    externalReference: t.string({ nullable: true, resolve: (plan) => plan.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (plan) => plan.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (plan) => plan.updatedAt }),
  }),
});

export const RatePlanConnection = builder.connectionObject({ type: RatePlan, name: 'RatePlanConnection' }, { name: 'RatePlanEdge' });

const RatePlanInput = builder.inputType('RatePlanInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs name and currency.',
  fields: (t) => ({
    name: t.string(),
    currency: t.string({ description: 'ISO 4217 currency code. Set on creation only; ignored on update.' }),
    adminIds: t.idList({
      description: 'Slugs or global IDs of administrations of the currency, replaced as a whole. Empty: every administration of '
        + 'the currency (only a credential not limited to administrations may share a plan so).',
    }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const inputRules = yup.object({
  name: text().nullable(),
  currency: currencyCode().nullable(),
  adminIds: yup.array(text(64).defined()).max(1000, '${path} must hold at most ${max} items').nullable(),
  externalReference: externalRef().nullable(),
});

function ratePlanPatch(input: typeof RatePlanInput.$inferInput): Patch<RatePlanFields> {
  const patch = { ...input } as Patch<RatePlanFields>;
  if (input.adminIds) patch.adminIds = input.adminIds.map((id) => administrationKey(String(id)));
  validate(inputRules, patch);
  return patch;
}

export const ratePlanRef = (id: string | number) => refFromArg(String(id), 'RatePlan');
export const RATE_PLAN_ID_DESCRIPTION = 'Global ID, REST id, or ext_ref.<external_reference>.';

builder.queryFields((t) => ({
  ratePlans: t.connection({
    type: RatePlan,
    description: 'The rate plans the caller may see (shared with one of its administrations), by id (REST: GET /rate-plan).',
    args: { currency: t.arg.string({ description: 'Only plans of this currency (ISO 4217).' }) },
    resolve: async (_root, args, context) => {
      validate(yup.object({ currency: currencyCode().nullable() }), { currency: args.currency });
      return listConnection<RatePlanData>(await ratePlanList(context.em, { currency: args.currency || undefined }), args);
    },
  }, RatePlanConnection),
  ratePlan: t.field({
    type: RatePlan,
    nullable: true,
    description: 'A rate plan; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: RATE_PLAN_ID_DESCRIPTION }) },
    resolve: (_root, args, context) => {
      const ref = ratePlanRef(args.id);
      return 'id' in ref ? ref.id : findRatePlan(context.em, ref);
    },
  }),
}));

builder.mutationFields((t) => ({
  createRatePlan: t.field({
    type: RatePlan,
    nullable: true,
    description: 'Creates a rate plan (REST: POST /rate-plan).',
    args: { input: t.arg({ type: RatePlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createRatePlan(em, ratePlanPatch(args.input))),
  }),
  updateRatePlan: t.field({
    type: RatePlan,
    nullable: true,
    description: 'Merge-updates name, externalReference and adminIds of a rate plan (REST: POST /rate-plan/{id}); '
      + 'with ext_ref.<ref> as id, creates it when none has that reference.',
    args: { id: t.arg.id({ required: true, description: RATE_PLAN_ID_DESCRIPTION }), input: t.arg({ type: RatePlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => upsertRatePlan(em, ratePlanRef(args.id), ratePlanPatch(args.input))),
  }),
}));
