// An EVSE under a CPO subscription (REST: /cpo-subscription-evse-link) and its writes, through the
// services REST calls (src/cpo/cpo-subscription.service.ts).
import { cpoLinksByIds, cpoLinksOfSubscriptions, type CpoLinkData } from '../../src/cpo/cpo-subscription.queries.ts';
import { createCpoLink, markCpoLinkDefunct, updateCpoLink } from '../../src/cpo/cpo-subscription.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import * as yup from 'yup';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { linkInputFields, linkPatch } from '../contract-inputs.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { CpoSubscription, RECURRING_COST_CORRECTION } from './cpo-subscription.ts';
import { DateTime } from './date-time.ts';
import { Evse } from './evse.ts';

export const CpoSubscriptionEvseLink = builder.loadableNode('CpoSubscriptionEvseLink', {
  description: 'An EVSE under a CPO subscription, valid from validFrom (null: the subscription\'s) until (excluding) validUntil '
    + '(REST: /cpo-subscription-evse-link/{id}).',
  id: { resolve: (link: CpoLinkData) => link.id },
  cacheResolved: (link) => link.id,
  isTypeOf: (value) => isDataOf(value, 'CpoSubscriptionEvseLink'),
  load: (ids: string[], context) => cpoLinksByIds(context.em, ids) as Promise<CpoLinkData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (link) => link.admin.id }),
    subscriptionId: t.string({ resolve: (link) => link.subscription.id }),
    subscription: t.field({ type: CpoSubscription, nullable: true, resolve: (link) => link.subscription.id }),
    evseUid: t.exposeString('evseUid'),
    evse: t.field({ type: Evse, nullable: true, resolve: (link) => link.evse.id }),
    validFrom: t.field({ type: DateTime, nullable: true, description: 'Null: the link starts with its subscription.', resolve: (link) => link.validFrom ?? null }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (link) => link.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    isCurrentlyValid: t.exposeBoolean('isCurrentlyValid', { description: 'The link and its subscription are valid now and not defunct (REST: is_currently_valid).' }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (link) => link.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (link) => link.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (link) => link.updatedAt }),
  }),
});

const CpoSubscriptionEvseLinkConnection = builder.connectionObject(
  { type: CpoSubscriptionEvseLink, name: 'CpoSubscriptionEvseLinkConnection' }, { name: 'CpoSubscriptionEvseLinkEdge' },
);

builder.objectField(CpoSubscription, 'evseLinks', (t) => t.loadable({
  type: CpoSubscriptionEvseLinkConnection,
  byPath: true,
  description: 'The EVSE links of this subscription (defunct ones too), by id (REST: links).',
  args: { ...t.arg.connectionArgs() },
  load: (subscriptionIds: string[], context, args) =>
    childConnectionsOf(subscriptionIds, args, (ids, range) => cpoLinksOfSubscriptions(context.em, ids, range)),
  resolve: (subscription) => subscription.id,
}));

const CreateCpoSubscriptionEvseLinkInput = builder.inputType('CreateCpoSubscriptionEvseLinkInput', {
  description: 'A new link of an EVSE of the subscription\'s administration; validity is [validFrom, validUntil).',
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: 'Global ID or REST id of the CPO subscription.' }),
    evseUid: t.string({ required: true, description: 'The evse_uid of the EVSE.' }),
    ...linkInputFields(t),
  }),
});

const CpoSubscriptionEvseLinkInput = builder.inputType('CpoSubscriptionEvseLinkInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it.',
  fields: (t) => linkInputFields(t),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const createRules = yup.object({ evseUid: text(64) });

const ID = 'Global ID or REST id.';
const linkId = (raw: string | number) => idArg(raw, 'CpoSubscriptionEvseLink');

builder.mutationFields((t) => ({
  createCpoSubscriptionEvseLink: t.field({
    type: CpoSubscriptionEvseLink, nullable: true,
    description: 'Links an EVSE to a CPO subscription (REST: POST /cpo-subscription-evse-link).',
    args: { input: t.arg({ type: CreateCpoSubscriptionEvseLinkInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { subscriptionId, evseUid, ...bounds } = args.input;
      validate(createRules, { evseUid });
      return createCpoLink(em, { ...linkPatch(bounds), subscriptionId: idArg(subscriptionId, 'CpoSubscription'), evseUid });
    }),
  }),
  updateCpoSubscriptionEvseLink: t.field({
    type: CpoSubscriptionEvseLink, nullable: true,
    description: 'Merge-updates a CPO subscription EVSE link; optional recurring cost correction (REST: POST /cpo-subscription-evse-link/{id}).',
    args: {
      id: t.arg.id({ required: true, description: ID }),
      input: t.arg({ type: CpoSubscriptionEvseLinkInput, required: true }),
      recurringCostCorrection: t.arg.boolean({ description: RECURRING_COST_CORRECTION }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) =>
      updateCpoLink(em, linkId(args.id), linkPatch(args.input), { recurringCostCorrection: args.recurringCostCorrection === true })),
  }),
  markCpoSubscriptionEvseLinkDefunct: t.field({
    type: CpoSubscriptionEvseLink, nullable: true,
    description: 'Marks a CPO subscription EVSE link defunct (REST: PUT /cpo-subscription-evse-link/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: ID }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded when given (REST: the optional body\'s external_updated_at).' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) => markCpoLinkDefunct(em, linkId(args.id), args.externalUpdatedAt)),
  }),
}));
