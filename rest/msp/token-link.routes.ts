import * as yup from 'yup';
import {
  createTokenLink, getTokenLink, markTokenLinkDefunct, updateTokenLink, type TokenLinkPatch,
} from '../../src/msp/save-token-link.service.ts';
import type { TokenLink } from '../../src/msp/token-link.entity.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';

const TAG = 'MSP token links';

export const tokenLinkShape = representation('TokenLink', {
  id: t.string(),
  subscription_id: t.string(),
  evco_id: t.string(),
  admin_id: t.string(),
  valid_from: t.nullable(t.timestamp()),
  effective_valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  is_currently_valid: t.boolean(),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

/** The subscription and the token must be loaded (the token whatever administration holds it now). */
export function serializeTokenLink(link: TokenLink): Infer<typeof tokenLinkShape> {
  return {
    id: link.id,
    subscription_id: link.subscription.id,
    evco_id: link.token.evcoId,
    admin_id: link.admin.id,
    valid_from: iso(link.validFrom),
    effective_valid_from: iso(link.effectiveFrom()),
    valid_until: iso(link.validUntil),
    defunct: link.defunct,
    is_currently_valid: link.isCurrentlyUsable(),
    external_updated_at: iso(link.externalUpdatedAt),
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
  };
}

const linkBody = yup.object({
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  external_updated_at: timestamp().nullable(),
});

const createBody = yup.object({
  subscription_id: text(64).defined('${path} is required'),
  evco_id: text(64).defined('${path} is required'),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  valid_from: { to: 'validFrom', convert: isoDate },
  valid_until: { to: 'validUntil', convert: isoDate },
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const RULES = 'Validity is [valid_from, valid_until); valid_from null defers to the subscription\'s valid_from. A token belongs '
  + 'to one subscription at a time, whatever the validity of that subscription: the spans of its non-defunct links may not '
  + 'overlap (400 overlapping_token_link at $.valid_from). Ending one link at T and starting the next at T is a seamless '
  + 'hand-over. is_currently_valid: the link and its subscription are both valid now and not defunct. A defunct link keeps '
  + 'its bounds (400 token_link_defunct).';

const update = async (em: Parameters<typeof updateTokenLink>[0], id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  serializeTokenLink(await updateTokenLink(em, id, patchFrom(body, MAPPING, mode) as TokenLinkPatch));

export const tokenLinkRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/msp-token-link', tag: TAG, summary: 'Link a token to a subscription', extension: true,
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
    method: 'post', path: '/msp-token-link/:id', tag: TAG, summary: 'Merge-update a token link', description: RULES, body: linkBody,
    response: tokenLinkShape,
    handler: ({ em, body, params }) => update(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-link/:id', tag: TAG, summary: 'Replace a token link (omitted fields are reset)', deprecated: true,
    description: RULES, body: linkBody, response: tokenLinkShape,
    handler: ({ em, body, params }) => update(em, params.id, body, 'replace'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-link/:id/defunct', tag: TAG, summary: 'Mark a token link defunct', response: tokenLinkShape,
    body: yup.object({ external_updated_at: timestamp().nullable() }), bodyOptional: true,
    handler: async ({ em, body, params }) => serializeTokenLink(await markTokenLinkDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  ...singleFieldRoutes({
    path: '/msp-token-link/:id', tag: TAG, response: tokenLinkShape,
    fields: { valid_from: { delete: true }, valid_until: { delete: true } },
    update: ({ em, params }, patch) => update(em, params.id, patch, 'merge'),
  }),
];
