import * as yup from 'yup';
import { subscriptionAuthorizationList } from '../../src/end-users/end-user.queries.ts';
import { getEndUser } from '../../src/end-users/save-end-user.service.ts';
import {
  mergeSubscriptionAuthorization, replaceSubscriptionAuthorizations, type SubscriptionAuthorizationPatch,
} from '../../src/end-users/save-subscription-authorization.service.ts';
import { SUBSCRIPTION_AUTHORIZATION_ROLES, type SubscriptionAuthorization } from '../../src/end-users/subscription-authorization.entity.ts';
import { iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { listOf, seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'End users';

export const subscriptionAuthorizationShape = representation('SubscriptionAuthorization', {
  id: t.string(),
  end_user_id: t.string(),
  subscription_id: t.string(),
  subscription_external_reference: t.nullable(t.string()),
  admin_id: t.string(),
  role: t.enum(SUBSCRIPTION_AUTHORIZATION_ROLES),
  valid_from: t.nullable(t.timestamp()),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  is_currently_valid: t.boolean(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeSubscriptionAuthorization(a: SubscriptionAuthorization, now = new Date()): Infer<typeof subscriptionAuthorizationShape> {
  return {
    id: a.id,
    end_user_id: a.endUser.id,
    subscription_id: a.subscription.id,
    subscription_external_reference: a.subscription.externalReference ?? null,
    admin_id: a.admin.id,
    role: a.role,
    valid_from: iso(a.validFrom),
    valid_until: iso(a.validUntil),
    defunct: a.defunct,
    is_currently_valid: a.isValidAt(now),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

const authorizationBody = yup.object({
  role: oneOf(SUBSCRIPTION_AUTHORIZATION_ROLES).nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  defunct: yup.boolean().nullable(),
});

const MAPPING: FieldMapping = {
  role: 'role',
  valid_from: { to: 'validFrom', convert: isoDate },
  valid_until: { to: 'validUntil', convert: isoDate },
  defunct: 'defunct',
};

const replaceBody = yup.object({
  items: yup.array(yup.object({
    subscription_id: text(300).required('${path} is required'),
    role: oneOf(SUBSCRIPTION_AUTHORIZATION_ROLES).nullable(),
    valid_from: timestamp().nullable(),
    valid_until: timestamp().nullable(),
  })).max(1000, '${path} must hold at most ${max} items').required('${path} is required'),
});

const RULES = 'Validity is [valid_from, valid_until); valid_until must be after valid_from. role defaults to driver (sees the '
  + 'subscription and its sessions); a manager may also cancel it and switch its plan. A defunct authorization stays defunct. '
  + 'Only subscriptions of the end user\'s administration can be authorized.';

export const endUserSubscriptionAuthorizationRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/end-user/:id/authorization-msp-token-subscription', tag: TAG, paged: true, response: subscriptionAuthorizationShape,
    summary: "List an end user's authorizations over MSP token subscriptions",
    handler: async ({ ctx, em, params, rawQuery }) => {
      const endUser = await getEndUser(em, params.id);
      return seekPage(ctx, {
        list: subscriptionAuthorizationList(em, endUser), rawQuery, path: ctx.path, serialize: serializeSubscriptionAuthorization,
      });
    },
  }),
  defineRoute({
    method: 'post', path: '/end-user/:id/authorization-msp-token-subscription/:subscription_id', tag: TAG, body: authorizationBody, bodyOptional: true,
    response: subscriptionAuthorizationShape,
    summary: 'Create or merge-update the authorization of an end user over an MSP token subscription (id or ext_ref.<external_reference>)',
    description: RULES,
    handler: async ({ em, body, params }) => serializeSubscriptionAuthorization(await mergeSubscriptionAuthorization(
      em, params.id, params.subscription_id, patchFrom(body, MAPPING) as SubscriptionAuthorizationPatch)),
  }),
  defineRoute({
    method: 'put', path: '/end-user/:id/authorization-msp-token-subscription', tag: TAG, body: replaceBody, deprecated: true,
    response: listOf(subscriptionAuthorizationShape),
    summary: "Replace an end user's whole set of subscription authorizations",
    description: `Listed subscriptions (subscription_id: id or ext_ref.<external_reference>) are authorized with the given fields `
      + `(omitted ones reset); every other authorization of the end user becomes defunct. ${RULES} Answers the end user's `
      + 'subscription authorizations, not paged.',
    handler: async ({ em, body, params }) => {
      const items = (body.items as Record<string, any>[]).map((item) => ({
        subscriptionId: item.subscription_id as string,
        role: item.role,
        validFrom: isoDate(item.valid_from),
        validUntil: isoDate(item.valid_until),
      }));
      const authorizations = await replaceSubscriptionAuthorizations(em, params.id, items);
      const now = new Date();
      return { items: authorizations.map((a) => serializeSubscriptionAuthorization(a, now)) };
    },
  }),
];
