// An EVSE under a reimbursement arrangement (REST: /cpo-reimbursement-link) and its writes, through
// the services REST calls (src/cpo/save-reimbursement-arrangement.service.ts).
import * as yup from 'yup';
import { reimbursementLinksByIds, reimbursementLinksOfArrangements, type ReimbursementLinkData } from '../../src/cpo/reimbursement.queries.ts';
import { createLink, markLinkDefunct, updateLink } from '../../src/cpo/save-reimbursement-arrangement.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { linkInputFields, linkPatch } from '../contract-inputs.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { Evse } from './evse.ts';
import { arrangementId, ReimbursementArrangement } from './reimbursement-arrangement.ts';

export const ReimbursementLink = builder.loadableNode('ReimbursementLink', {
  description: 'An EVSE under a reimbursement arrangement, valid from validFrom (null: the arrangement\'s) until (excluding) validUntil '
    + '(REST: /cpo-reimbursement-link/{id}).',
  id: { resolve: (link: ReimbursementLinkData) => link.id },
  cacheResolved: (link) => link.id,
  isTypeOf: (value) => isDataOf(value, 'ReimbursementLink'),
  load: (ids: string[], context) => reimbursementLinksByIds(context.em, ids) as Promise<ReimbursementLinkData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (link) => link.admin.id }),
    arrangementId: t.string({ resolve: (link) => link.arrangement.id }),
    arrangement: t.field({ type: ReimbursementArrangement, nullable: true, resolve: (link) => link.arrangement.id }),
    evseUid: t.exposeString('evseUid'),
    evse: t.field({ type: Evse, nullable: true, resolve: (link) => link.evse.id }),
    validFrom: t.field({ type: DateTime, nullable: true, description: 'Null: the link starts with its arrangement.', resolve: (link) => link.validFrom ?? null }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (link) => link.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (link) => link.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (link) => link.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (link) => link.updatedAt }),
  }),
});

const ReimbursementLinkConnection = builder.connectionObject({ type: ReimbursementLink, name: 'ReimbursementLinkConnection' }, { name: 'ReimbursementLinkEdge' });

builder.objectField(ReimbursementArrangement, 'evseLinks', (t) => t.loadable({
  type: ReimbursementLinkConnection,
  byPath: true,
  description: 'The EVSE links of this arrangement (defunct ones too), by id (REST: links).',
  args: { ...t.arg.connectionArgs() },
  load: (arrangementIds: string[], context, args) =>
    childConnectionsOf(arrangementIds, args, (ids, range) => reimbursementLinksOfArrangements(context.em, ids, range)),
  resolve: (arrangement) => arrangement.id,
}));

const CreateReimbursementLinkInput = builder.inputType('CreateReimbursementLinkInput', {
  description: 'A new link of an EVSE of the arrangement\'s administration; validity is [validFrom, validUntil). '
    + 'externalUpdatedAt is not recorded on creation (as in REST).',
  fields: (t) => ({
    arrangementId: t.id({ required: true, description: 'Global ID or REST id of the arrangement.' }),
    evseUid: t.string({ required: true, description: 'The evse_uid of the EVSE.' }),
    ...linkInputFields(t),
  }),
});

const ReimbursementLinkInput = builder.inputType('ReimbursementLinkInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it.',
  fields: (t) => linkInputFields(t),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const createRules = yup.object({ evseUid: text(64) });

const ID = 'Global ID or REST id.';
const linkId = (raw: string | number) => idArg(raw, 'ReimbursementLink');

builder.mutationFields((t) => ({
  createReimbursementLink: t.field({
    type: ReimbursementLink, nullable: true,
    description: 'Links an EVSE to a reimbursement arrangement (REST: POST /cpo-reimbursement-link).',
    args: { input: t.arg({ type: CreateReimbursementLinkInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { arrangementId: arrangement, evseUid, ...bounds } = args.input;
      validate(createRules, { evseUid });
      return createLink(em, { ...linkPatch(bounds), arrangementId: arrangementId(arrangement), evseUid });
    }),
  }),
  updateReimbursementLink: t.field({
    type: ReimbursementLink, nullable: true,
    description: 'Merge-updates a reimbursement link (REST: POST /cpo-reimbursement-link/{id}).',
    args: { id: t.arg.id({ required: true, description: ID }), input: t.arg({ type: ReimbursementLinkInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateLink(em, linkId(args.id), linkPatch(args.input))),
  }),
  markReimbursementLinkDefunct: t.field({
    type: ReimbursementLink, nullable: true,
    description: 'Marks a reimbursement link defunct (REST: PUT /cpo-reimbursement-link/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: ID }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded when given (REST: the optional body\'s external_updated_at).' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) => markLinkDefunct(em, linkId(args.id), args.externalUpdatedAt)),
  }),
}));
