import { DomainError } from '../../src/platform/errors.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { ratePlanVersionsByIds, versionsOfRatePlans, type RatePlanVersionData } from '../../src/pricing/rate-plan.queries.ts';
import { createRatePlanVersion } from '../../src/pricing/rate-plan.service.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { inArgument } from '../errors.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';
import { RATE_PLAN_ID_DESCRIPTION, RatePlan, ratePlanRef } from './rate-plan.ts';

export const RatePlanVersion = builder.loadableNode('RatePlanVersion', {
  description: 'The rates of a plan from validFrom until the next version\'s validFrom. Immutable: a change is a new version.',
  id: { resolve: (version: RatePlanVersionData) => version.id },
  cacheResolved: (version) => version.id,
  isTypeOf: (value) => isDataOf(value, 'RatePlanVersion'),
  load: (ids: string[], context) => ratePlanVersionsByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this version in the REST API.' }),
    ratePlanId: t.string({ description: 'The REST id of the rate plan.', resolve: (version) => version.ratePlan.id }),
    ratePlan: t.field({ type: RatePlan, resolve: (version) => version.ratePlan.id }),
    validFrom: t.field({ type: DateTime, resolve: (version) => version.validFrom }),
    definition: t.field({
      type: JsonScalar,
      description: 'As in REST (POST /rate-plan/{id}/version describes it): {rates, rules}, every amount an exact decimal string.',
      resolve: (version) => version.definition,
    }),
    createdAt: t.field({ type: DateTime, resolve: (version) => version.createdAt }),
  }),
});

export const RatePlanVersionConnection = builder.connectionObject(
  { type: RatePlanVersion, name: 'RatePlanVersionConnection' },
  { name: 'RatePlanVersionEdge' },
);

builder.objectField(RatePlan, 'versions', (t) => t.loadable({
  type: RatePlanVersionConnection,
  byPath: true,
  description: 'The versions of this plan, by id (REST: GET /rate-plan/{id}/version).',
  args: { ...t.arg.connectionArgs() },
  load: (planIds: string[], context, args) => childConnectionsOf(planIds, args, (ids, range) => versionsOfRatePlans(context.em, ids, range)),
  resolve: (plan) => plan.id,
}));

const RatePlanVersionInput = builder.inputType('RatePlanVersionInput', {
  fields: (t) => ({
    validFrom: t.field({ type: DateTime, required: true, description: 'Unique within the plan.' }),
    definition: t.field({
      type: JsonScalar,
      required: true,
      description: 'As in REST (POST /rate-plan/{id}/version): {rates, rules}, every amount an exact decimal string, never a number.',
    }),
  }),
});

/** `valid_from` is `$.input.validFrom`; places inside the definition keep the JSON's own member names. */
function inInput(error: unknown): unknown {
  return error instanceof DomainError ? inArgument(error, { name: 'input', jsonMembers: ['definition'] }) : error;
}

builder.mutationFields((t) => ({
  addRatePlanVersion: t.field({
    type: RatePlanVersion,
    nullable: true,
    description: 'Adds a version to a rate plan (REST: POST /rate-plan/{id}/version).',
    args: {
      ratePlanId: t.arg.id({ required: true, description: RATE_PLAN_ID_DESCRIPTION }),
      input: t.arg({ type: RatePlanVersionInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) =>
      createRatePlanVersion(em, ratePlanRef(args.ratePlanId), args.input).catch((error) => { throw inInput(error); })),
  }),
}));
