import * as yup from 'yup';
import { createTokenLink, markTokenLinkDefunct, updateTokenLink } from '../../src/msp/save-token-link.service.ts';
import { tokenLinksByIds, tokenLinksOf, tokenLinkState, type TokenLinkRow } from '../../src/msp/token-subscription.queries.ts';
import { tokenEvcoIds } from '../../src/msp/token.queries.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import type { GraphQLContext } from '../context.ts';
import { idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { Token } from './token.ts';
import { TokenSubscription } from './token-subscription.ts';

/** The link's effective valid_from and whether it is valid now, with its subscription (loaded in a batch). */
async function stateOf(link: TokenLinkRow, context: GraphQLContext) {
  return tokenLinkState(link, await TokenSubscription.getDataloader(context).load(link.subscription.id));
}

/**
 * The evco ids of these tokens: through the Token loader, and for a token that moved to an
 * administration the caller may not see, read past the filter (a link keeps naming its token).
 */
async function evcoIds(tokenIds: readonly string[], context: GraphQLContext): Promise<string[]> {
  const visible = await Token.getDataloader(context).loadMany(tokenIds);
  const byId = new Map<string, string>();
  visible.forEach((token, i) => {
    if (token && !(token instanceof Error)) byId.set(tokenIds[i], token.evcoId);
  });
  const hidden = tokenIds.filter((id) => !byId.has(id));
  if (hidden.length) {
    for (const [id, evcoId] of await tokenEvcoIds(context.em, hidden)) byId.set(id, evcoId);
  }
  return tokenIds.map((id) => byId.get(id)!);
}

export const TokenLink = builder.loadableNode('TokenLink', {
  description: 'A token\'s membership of a subscription, valid from effectiveValidFrom until (excluding) validUntil.',
  id: { resolve: (link: TokenLinkRow) => link.id },
  cacheResolved: (link) => link.id,
  isTypeOf: (value) => isDataOf(value, 'TokenLink'),
  load: (ids: string[], context) => tokenLinksByIds(context.em, ids) as Promise<TokenLinkRow[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this link in the REST API.' }),
    administration: t.field({ type: Administration, resolve: (link) => link.admin.id }),
    subscription: t.field({ type: TokenSubscription, resolve: (link) => link.subscription.id }),
    evcoId: t.loadable({
      type: 'String',
      description: 'The eMA ID of the token, also when the token has moved to an administration the caller may not see.',
      load: (tokenIds: string[], context) => evcoIds(tokenIds, context),
      resolve: (link) => link.token.id,
    }),
    token: t.field({
      type: Token,
      nullable: true,
      description: 'Null when the token has moved to an administration the caller may not see.',
      resolve: (link) => link.token.id,
    }),
    validFrom: t.field({
      type: DateTime, nullable: true, description: 'Null: the link starts with its subscription.',
      resolve: (link) => link.validFrom ?? null,
    }),
    effectiveValidFrom: t.field({
      type: DateTime,
      description: 'validFrom, else the subscription\'s validFrom.',
      resolve: async (link, _args, context) => (await stateOf(link, context)).effectiveValidFrom,
    }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (link) => link.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    isCurrentlyValid: t.boolean({
      description: 'The link and its subscription are both valid now and not defunct (REST: is_currently_valid).',
      resolve: async (link, _args, context) => (await stateOf(link, context)).isCurrentlyValid,
    }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (link) => link.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (link) => link.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (link) => link.updatedAt }),
  }),
});

/** The rows of schema/child-connection.ts as plain data (the node fields read no more than the entity's own members). */
export const TokenLinkConnection = builder.connectionObject({ type: TokenLink, name: 'TokenLinkConnection' }, { name: 'TokenLinkEdge' });

builder.objectField(TokenSubscription, 'tokenLinks', (t) => t.loadable({
  type: TokenLinkConnection,
  byPath: true,
  description: 'The token links of this subscription (defunct ones too), by id.',
  args: { ...t.arg.connectionArgs() },
  load: (subscriptionIds: string[], context, args) => childConnectionsOf(subscriptionIds, args, (ids, range) => tokenLinksOf(context.em, 'subscription', ids, range)),
  resolve: (subscription) => subscription.id,
}));

builder.objectField(Token, 'links', (t) => t.loadable({
  type: TokenLinkConnection,
  byPath: true,
  description: 'The links of this token to subscriptions the caller may see (defunct ones too), by id.',
  args: { ...t.arg.connectionArgs() },
  load: (tokenIds: string[], context, args) => childConnectionsOf(tokenIds, args, (ids, range) => tokenLinksOf(context.em, 'token', ids, range)),
  resolve: (token) => token.id,
}));

const RULES = 'A token belongs to one subscription at a time: the spans of its non-defunct links may not overlap '
  + '(overlapping_token_link at validFrom); ending one link at T and starting the next at T is a seamless hand-over.';

const CreateTokenLinkInput = builder.inputType('CreateTokenLinkInput', {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: 'Global ID or REST id of a subscription that is not defunct.' }),
    evcoId: t.string({ required: true, description: 'The token, by its eMA ID; it moves to the subscription\'s administration.' }),
    validFrom: t.field({ type: DateTime, description: 'Null: the link starts with the subscription.' }),
    validUntil: t.field({ type: DateTime, description: 'Excluded: the link ends just before it.' }),
  }),
});

const TokenLinkInput = builder.inputType('TokenLinkInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it (validFrom null defers to the subscription).',
  fields: (t) => ({
    validFrom: t.field({ type: DateTime }),
    validUntil: t.field({ type: DateTime }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'Recorded, also on a defunct link.' }),
  }),
});

const createRules = yup.object({ subscriptionId: text(64), evcoId: text(64) });
const LINK_ID = 'Global ID or REST id.';

builder.mutationFields((t) => ({
  createTokenLink: t.field({
    type: TokenLink,
    nullable: true,
    description: `Links a token to a subscription (REST: POST /msp-token-link). ${RULES}`,
    args: { input: t.arg({ type: CreateTokenLinkInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) => {
      validate(createRules, input);
      return createTokenLink(em, { ...input, subscriptionId: idArg(input.subscriptionId, 'TokenSubscription') });
    }),
  }),
  updateTokenLink: t.field({
    type: TokenLink,
    nullable: true,
    description: `Merge-updates a token link's bounds (REST: POST /msp-token-link/{id}); a defunct link keeps them. ${RULES}`,
    args: { id: t.arg.id({ required: true, description: LINK_ID }), input: t.arg({ type: TokenLinkInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateTokenLink(em, idArg(args.id, 'TokenLink'), args.input)),
  }),
  defunctTokenLink: t.field({
    type: TokenLink,
    nullable: true,
    description: 'Marks a token link defunct, for good (REST: PUT /msp-token-link/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: LINK_ID }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded on the link.' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) => markTokenLinkDefunct(em, idArg(args.id, 'TokenLink'), args.externalUpdatedAt)),
  }),
}));
