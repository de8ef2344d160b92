// API credentials (no REST write; CLI: credential create): list, create (the generated secret is
// answered once, in the mutation's result only), change role and administration limit, revoke.
// Only an admin credential without an administration limit may list or manage them (FORBIDDEN,
// HTTP 403, otherwise). The secret and its hash are never answered by the list.
import { GraphQLError } from 'graphql';
import * as yup from 'yup';
import type { Actor } from '../../src/access/actor.ts';
import { ROLES } from '../../src/access/credential.entity.ts';
import { assertMayManageCredentials, credentialList, type CredentialData } from '../../src/credentials/credential.queries.ts';
import {
  changeCredentialScope, createApiCredential, revokeCredential, type NewCredential,
} from '../../src/credentials/manage-credentials.service.ts';
import type { GraphQLErrorCode } from '../../src/platform/error-codes.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { administrationKey, idArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

export const CredentialRole = enumOf('CredentialRole', ROLES, 'ADMIN reads and writes, READONLY only reads, APP uses the App API for its end users.');

export const ApiCredential = builder.objectRef<CredentialData>('ApiCredential').implement({
  description: 'An API credential (HTTP Basic public id and secret). Its secret is never shown after its creation.',
  isTypeOf: (value) => isDataOf(value, 'Credential'),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    publicId: t.exposeString('publicId', { description: 'The user name of HTTP Basic.' }),
    role: t.field({ type: CredentialRole, resolve: (c) => c.role }),
    adminIds: t.exposeStringList('adminIds', { description: 'The administrations it is limited to; empty: every administration.' }),
    siteId: t.string({ nullable: true, description: 'App credentials: their end-user site.', resolve: (c) => c.siteId }),
    rateLimitPerMinute: t.int({ nullable: true, resolve: (c) => c.rateLimitPerMinute }),
    revoked: t.boolean({ resolve: (c) => c.revokedAt !== null }),
    revokedAt: t.field({ type: DateTime, nullable: true, resolve: (c) => c.revokedAt }),
    createdAt: t.field({ type: DateTime, resolve: (c) => c.createdAt }),
  }),
});

const NewApiCredential = builder.objectRef<NewCredential>('NewApiCredential').implement({
  description: 'A credential just created, with its secret: shown this once, store it now.',
  fields: (t) => ({
    credential: t.field({ type: ApiCredential, resolve: (n) => n.credential }),
    secret: t.exposeString('secret', { description: 'The HTTP Basic password; never shown again.' }),
  }),
});

const ApiCredentialConnection = builder.connectionObject({ type: ApiCredential, name: 'ApiCredentialConnection' }, { name: 'ApiCredentialEdge' });

/** The refusal of credential management as the other instance-wide refusals look over GraphQL: FORBIDDEN, HTTP 403. */
function managing<T>(actor: Actor, run: () => T): T {
  try {
    assertMayManageCredentials(actor);
  } catch (error) {
    if (error instanceof DomainError) {
      throw new GraphQLError(error.message, { extensions: { code: 'FORBIDDEN' satisfies GraphQLErrorCode, http: { status: 403 } } });
    }
    throw error;
  }
  return run();
}

const rules = yup.object({
  publicId: text(64).nullable(),
  adminIds: yup.array(text(64)).max(100, '${path} must hold at most ${max} items').nullable(),
  siteId: text(64).nullable(),
  rateLimitPerMinute: yup.number().integer().min(1, '${path} must be at least 1').max(1_000_000).nullable(),
});

const adminKeys = (ids: readonly (string | number)[] | null | undefined) => ids?.map((id) => administrationKey(String(id)));

builder.queryFields((t) => ({
  apiCredentials: t.connection({
    type: ApiCredential,
    description: 'Every API credential, revoked ones included, by id. Only an admin credential without an administration limit may list them.',
    resolve: (_root, args, context) => managing(context.actor, () => listConnection<CredentialData>(credentialList(context.em, context.actor), args)),
  }, ApiCredentialConnection),
}));

builder.mutationFields((t) => ({
  createApiCredential: t.field({
    type: NewApiCredential, nullable: true,
    description: 'Creates an API credential with a generated secret, answered here once (CLI: credential create). Admin credentials without an administration limit only.',
    args: {
      publicId: t.arg.string({ required: true, description: '3 to 64 letters, digits, ".", "_" or "-"; unique.' }),
      role: t.arg({ type: CredentialRole, description: 'Defaults to ADMIN.' }),
      adminIds: t.arg.idList({ description: 'Slugs or global IDs; absent or empty: every administration.' }),
      siteId: t.arg.id({ description: 'App credentials: their end-user site (global ID or REST id).' }),
      rateLimitPerMinute: t.arg.int({ description: 'Requests a minute; absent: the service default.' }),
    },
    resolve: (_root, args, context) => managing(context.actor, () => {
      validate(rules, args);
      return mutate(context, FIELD_ARGUMENTS, (em) => createApiCredential(em, context.actor, {
        publicId: args.publicId, role: args.role ?? undefined, adminIds: adminKeys(args.adminIds),
        siteId: args.siteId ? idArg(args.siteId, 'EndUserSite') : null, rateLimitPerMinute: args.rateLimitPerMinute ?? null,
      }));
    }),
  }),
  updateApiCredentialScope: t.field({
    type: ApiCredential, nullable: true,
    description: 'Changes the role and administration limit of a credential (absent: kept; adminIds [] lifts the limit); it acts so from its next request on.',
    args: {
      publicId: t.arg.string({ required: true }),
      role: t.arg({ type: CredentialRole }),
      adminIds: t.arg.idList({ description: 'Slugs or global IDs; empty: every administration.' }),
    },
    resolve: (_root, args, context) => managing(context.actor, () => {
      validate(rules, args);
      return mutate(context, FIELD_ARGUMENTS, (em) => changeCredentialScope(em, context.actor, args.publicId, { role: args.role, adminIds: adminKeys(args.adminIds) }));
    }),
  }),
  revokeApiCredential: t.field({
    type: ApiCredential, nullable: true,
    description: 'Revokes a credential: from now on it authenticates no more (401).',
    args: { publicId: t.arg.string({ required: true }) },
    resolve: (_root, args, context) => managing(context.actor, () =>
      mutate(context, FIELD_ARGUMENTS, (em) => revokeCredential(em, context.actor, args.publicId))),
  }),
}));
