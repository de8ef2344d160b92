import * as yup from 'yup';
import { createTokenLink, markTokenLinkDefunct, updateTokenLink, type TokenLinkPatch } from '../../src/msp/save-token-link.service.ts';
import { getTokenLink, type TokenLinkData } from '../../src/msp/token-subscription.queries.ts';
import { adminMember, defunctBody, inShapeOrder, LINK, linkBody, linkShape, linkValues } from '../rails/contracts.ts';
import { patchFrom } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { t, type Infer } from '../rails/shape.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';

const TAG = 'MSP token links';

export const tokenLinkShape = linkShape('TokenLink', {
  head: { subscription_id: t.string(), evco_id: t.string(), ...adminMember }, from: { effective_valid_from: t.timestamp() },
  state: { is_currently_valid: t.boolean() },
});

export function serializeTokenLink(link: TokenLinkData): Infer<typeof tokenLinkShape> {
  return inShapeOrder(tokenLinkShape, {
    ...linkValues(link), subscription_id: link.subscription.id, evco_id: link.evcoId, effective_valid_from: iso(link.effectiveValidFrom),
    is_currently_valid: link.isCurrentlyValid,
  });
}

const createBody = yup.object({
  subscription_id: text(64).defined('${path} is required'),
  evco_id: text(64).defined('${path} is required'),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
});

const MAPPING = LINK;

const RULES = 'Validity is [valid_from, valid_until); valid_from null defers to the subscription\'s valid_from. A token belongs '
  + 'to one subscription at a time, whatever the validity of that subscription: the spans of its non-defunct links may not '
  + 'overlap (400 overlapping_token_link at $.valid_from). Ending one link at T and starting the next at T is a seamless '
  + 'hand-over. is_currently_valid: the link and its subscription are both valid now and not defunct. A defunct link keeps '
  + 'its bounds (400 token_link_defunct).';

const update = async (em: Parameters<typeof updateTokenLink>[0], id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  serializeTokenLink(await updateTokenLink(em, id, patchFrom(body, MAPPING, mode) as TokenLinkPatch));

export const tokenLinkRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/msp-token-link', tag: TAG, graphql: 'createTokenLink', summary: 'Link a token to a subscription', extension: true,
    description: `The token is named by its evco_id; it moves to the subscription's administration. ${RULES}`, body: createBody,
    response: tokenLinkShape,
    handler: async ({ em, body }) => serializeTokenLink(await createTokenLink(em, {
      subscriptionId: body.subscription_id, evcoId: body.evco_id, validFrom: isoDate(body.valid_from), validUntil: isoDate(body.valid_until),
    })),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-link/:id', tag: TAG, summary: 'Get a token link', response: tokenLinkShape,
    handler: async ({ em, params }) => serializeTokenLink(await getTokenLink(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-link/:id', tag: TAG, graphql: 'updateTokenLink', summary: 'Merge-update a token link', description: RULES, body: linkBody,
    response: tokenLinkShape,
    handler: ({ em, body, params }) => update(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-link/:id', tag: TAG, summary: 'Replace a token link (omitted fields are reset)', deprecated: true,
    description: RULES, body: linkBody, response: tokenLinkShape,
    handler: ({ em, body, params }) => update(em, params.id, body, 'replace'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-link/:id/defunct', tag: TAG, graphql: 'defunctTokenLink', summary: 'Mark a token link defunct', response: tokenLinkShape,
    body: defunctBody, bodyOptional: true,
    handler: async ({ em, body, params }) => serializeTokenLink(await markTokenLinkDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  ...singleFieldRoutes({
    path: '/msp-token-link/:id', tag: TAG, response: tokenLinkShape,
    fields: { valid_from: { delete: true }, valid_until: { delete: true } },
    update: ({ em, params }, patch) => update(em, params.id, patch, 'merge'),
  }),
];
