// The routes of an end user's authorizations over one kind of target (customers, MSP token
// subscriptions): list, create or merge-update one by the target's id, and the deprecated PUT that
// replaces the whole set. Each kind names its shape, roles and services.
import * as yup from 'yup';
import type { AuthorizationTarget } from '../../src/end-users/end-user.queries.ts';
import { iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import type { Em } from '../../src/platform/orm.ts';
import type { SeekList } from '../../src/platform/seek-page.ts';
import { listOf, seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t } from '../rails/shape.ts';

const TAG = 'End users';

const MAPPING: FieldMapping = {
  role: 'role',
  valid_from: { to: 'validFrom', convert: isoDate },
  valid_until: { to: 'validUntil', convert: isoDate },
  defunct: 'defunct',
};

export interface AuthorizationItem { target: string; role?: string | null; validFrom?: Date | null; validUntil?: Date | null }

/** What both kinds of authorization data offer (src/end-users/end-user.queries.ts). */
export interface AuthorizationRecord {
  id: string;
  endUser: { id: string };
  admin: { id: string };
  role: string;
  validFrom?: Date | null;
  validUntil?: Date | null;
  defunct: boolean;
  createdAt: Date;
  updatedAt: Date;
  isCurrentlyValid: boolean;
}

export interface AuthorizationKind<A extends AuthorizationRecord> {
  /** The representation's name, e.g. `CustomerAuthorization`. */
  name: string;
  /** The path segment after /end-user/{id}/, e.g. `authorization-customer`. */
  segment: string;
  /** The target's name in members (`<target>_id`, `<target>_external_reference`) and the path. */
  target: 'customer' | 'subscription';
  targetOf(authorization: A): AuthorizationTarget;
  /** e.g. `a customer`, `customers`. */
  one: string;
  many: string;
  roles: readonly string[];
  rules: string;
  /** The GraphQL mutation of POST (create or merge-update one). */
  graphql: string;
  /** The end user's authorizations (an end user the caller does not see: not_found). */
  list(em: Em, endUserId: string): Promise<SeekList<A>>;
  /** `target`: the id or `ext_ref.<external_reference>` the client named. */
  merge(em: Em, endUserId: string, target: string, patch: Record<string, unknown>): Promise<A>;
  replace(em: Em, endUserId: string, items: AuthorizationItem[]): Promise<A[]>;
}

export function authorizationRoutes<A extends AuthorizationRecord>(kind: AuthorizationKind<A>): RouteDef[] {
  const path = `/end-user/:id/${kind.segment}`;
  const targetMember = `${kind.target}_id`;
  const shape = representation(kind.name, {
    id: t.string(),
    end_user_id: t.string(),
    [targetMember]: t.string(),
    [`${kind.target}_external_reference`]: t.nullable(t.string()),
    admin_id: t.string(),
    role: t.enum(kind.roles),
    valid_from: t.nullable(t.timestamp()),
    valid_until: t.nullable(t.timestamp()),
    defunct: t.boolean(),
    is_currently_valid: t.boolean(),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  });
  const serialize = (a: A) => ({
    id: a.id,
    end_user_id: a.endUser.id,
    [targetMember]: kind.targetOf(a).id,
    [`${kind.target}_external_reference`]: kind.targetOf(a).externalReference,
    admin_id: a.admin.id,
    role: a.role,
    valid_from: iso(a.validFrom),
    valid_until: iso(a.validUntil),
    defunct: a.defunct,
    is_currently_valid: a.isCurrentlyValid,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  });
  const body = yup.object({
    role: oneOf(kind.roles).nullable(),
    valid_from: timestamp().nullable(),
    valid_until: timestamp().nullable(),
    defunct: yup.boolean().nullable(),
  });
  const replaceBody = yup.object({
    items: yup.array(yup.object({
      [targetMember]: text(300).required('${path} is required'),
      role: oneOf(kind.roles).nullable(),
      valid_from: timestamp().nullable(),
      valid_until: timestamp().nullable(),
    })).max(1000, '${path} must hold at most ${max} items').required('${path} is required'),
  });
  return [
    defineRoute({
      method: 'get', path, tag: TAG, paged: true, response: shape, summary: `List an end user's authorizations over ${kind.many}`,
      handler: async ({ ctx, em, params, rawQuery }) => seekPage(ctx, {
        list: await kind.list(em, params.id), rawQuery, path: ctx.path, serialize: (a: A) => serialize(a),
      }),
    }),
    defineRoute({
      method: 'post', path: `${path}/:${targetMember}`, graphql: kind.graphql, tag: TAG, body, bodyOptional: true, response: shape,
      summary: `Create or merge-update the authorization of an end user over ${kind.one} (id or ext_ref.<external_reference>)`,
      description: kind.rules,
      handler: async ({ em, body: b, params }) => serialize(await kind.merge(em, params.id, params[targetMember], patchFrom(b, MAPPING))),
    }),
    defineRoute({
      method: 'put', path, tag: TAG, body: replaceBody, deprecated: true, response: listOf(shape),
      summary: `Replace an end user's whole set of authorizations over ${kind.many}`,
      description: `Listed ${kind.many} (${targetMember}: id or ext_ref.<external_reference>) are authorized with the given fields `
        + `(omitted ones reset); every other such authorization of the end user becomes defunct. ${kind.rules} Answers the end user's `
        + 'authorizations, not paged.',
      handler: async ({ em, body: b, params }) => {
        const items = (b.items as Record<string, any>[]).map((item) => ({
          target: String(item[targetMember]), role: item.role, validFrom: isoDate(item.valid_from), validUntil: isoDate(item.valid_until),
        }));
        const authorizations = await kind.replace(em, params.id, items);
        return { items: authorizations.map((a) => serialize(a)) };
      },
    }),
  ];
}
