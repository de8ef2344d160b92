import { customerAuthorizationList } from '../../src/end-users/end-user.queries.ts';
import * as yup from 'yup';
import { AUTHORIZATION_ROLES, CustomerAuthorization } from '../../src/end-users/customer-authorization.entity.ts';
import {
  mergeCustomerAuthorization, replaceCustomerAuthorizations, type AuthorizationPatch,
} from '../../src/end-users/save-customer-authorization.service.ts';
import { getEndUser } from '../../src/end-users/save-end-user.service.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { listOf, seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'End users';

export const customerAuthorizationShape = representation('CustomerAuthorization', {
  id: t.string(),
  end_user_id: t.string(),
  customer_id: t.string(),
  customer_external_reference: t.nullable(t.string()),
  admin_id: t.string(),
  role: t.enum(AUTHORIZATION_ROLES),
  valid_from: t.nullable(t.timestamp()),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  is_currently_valid: t.boolean(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeCustomerAuthorization(a: CustomerAuthorization, now = new Date()): Infer<typeof customerAuthorizationShape> {
  return {
    id: a.id,
    end_user_id: a.endUser.id,
    customer_id: a.customer.id,
    customer_external_reference: a.customer.externalReference ?? null,
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
  role: oneOf(AUTHORIZATION_ROLES).nullable(),
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
    customer_id: text(300).required('${path} is required'),
    role: oneOf(AUTHORIZATION_ROLES).nullable(),
    valid_from: timestamp().nullable(),
    valid_until: timestamp().nullable(),
  })).max(1000, '${path} must hold at most ${max} items').required('${path} is required'),
});

const RULES = 'Validity is [valid_from, valid_until); valid_until must be after valid_from. role defaults to owner. '
  + 'A defunct authorization stays defunct. Only customers of the end user\'s administration can be authorized.';

export const endUserAuthorizationRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/end-user/:id/authorization-customer', tag: TAG, paged: true, response: customerAuthorizationShape,
    summary: "List an end user's authorizations over customers",
    handler: async ({ ctx, em, params, rawQuery }) => {
      const endUser = await getEndUser(em, params.id);
      return seekPage(ctx, {
        list: customerAuthorizationList(em, endUser), rawQuery, path: ctx.path, serialize: serializeCustomerAuthorization,
      });
    },
  }),
  defineRoute({
    method: 'post', path: '/end-user/:id/authorization-customer/:customer_id', tag: TAG, body: authorizationBody, bodyOptional: true,
    response: customerAuthorizationShape,
    summary: 'Create or merge-update the authorization of an end user over a customer (id or ext_ref.<external_reference>)',
    description: RULES,
    handler: async ({ em, body, params }) => serializeCustomerAuthorization(await mergeCustomerAuthorization(
      em, params.id, parseRef(params.customer_id, true), patchFrom(body, MAPPING) as AuthorizationPatch)),
  }),
  defineRoute({
    method: 'put', path: '/end-user/:id/authorization-customer', tag: TAG, body: replaceBody, deprecated: true,
    response: listOf(customerAuthorizationShape),
    summary: "Replace an end user's whole set of customer authorizations",
    description: `Listed customers (customer_id: id or ext_ref.<external_reference>) are authorized with the given fields `
      + `(omitted ones reset); every other authorization of the end user becomes defunct. ${RULES} Answers the end user's `
      + 'authorizations, not paged.',
    handler: async ({ em, body, params }) => {
      const items = (body.items as Record<string, any>[]).map((item) => ({
        customer: parseRef(item.customer_id, true),
        role: item.role,
        validFrom: isoDate(item.valid_from),
        validUntil: isoDate(item.valid_until),
      }));
      const authorizations = await replaceCustomerAuthorizations(em, params.id, items);
      const now = new Date();
      return { items: authorizations.map((a) => serializeCustomerAuthorization(a, now)) };
    },
  }),
];
