// End users, their sites and their authorizations over customers and MSP token subscriptions,
// for operators; the same services and queries as REST /end-user, /end-user-site and
// /end-user/{id}/authorization-*. (An app's own end user reads through `viewer`.)
import * as yup from 'yup';
import { AUTHORIZATION_ROLES } from '../../src/end-users/customer-authorization.entity.ts';
import { createSite } from '../../src/end-users/end-user-site.service.ts';
import {
  customerAuthorizationList, endUserList, endUserSiteList, endUserSitesByIds, endUsersByIds, findEndUser, subscriptionAuthorizationList,
  type CustomerAuthorizationData, type EndUserData, type EndUserSiteData, type SubscriptionAuthorizationData,
} from '../../src/end-users/end-user.queries.ts';
import { mergeCustomerAuthorization, type AuthorizationPatch } from '../../src/end-users/save-customer-authorization.service.ts';
import { createEndUser, updateEndUser, type EndUserPatch } from '../../src/end-users/save-end-user.service.ts';
import {
  mergeSubscriptionAuthorization, type SubscriptionAuthorizationPatch,
} from '../../src/end-users/save-subscription-authorization.service.ts';
import { SUBSCRIPTION_AUTHORIZATION_ROLES } from '../../src/end-users/subscription-authorization.entity.ts';
import { email, externalRef, nfcText, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { administrationKey, idArg, refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';

export const CustomerAuthorizationRole = enumOf('CustomerAuthorizationRole', AUTHORIZATION_ROLES, 'What an end user may do with a customer.');
export const SubscriptionAuthorizationRole = enumOf(
  'SubscriptionAuthorizationRole', SUBSCRIPTION_AUTHORIZATION_ROLES, 'DRIVER sees the subscription and its sessions; MANAGER may also cancel it and switch its plan.',
);

export const EndUserSite = builder.loadableNode('EndUserSite', {
  description: 'A site end users register in (an App credential belongs to one). REST: /end-user-site.',
  id: { resolve: (site: EndUserSiteData) => site.id },
  cacheResolved: (site) => site.id,
  isTypeOf: (value) => isDataOf(value, 'EndUserSite'),
  load: (ids: string[], context) => endUserSitesByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this site in the REST API.' }),
    administration: t.field({ type: Administration, resolve: (site) => site.admin.id }),
    name: t.exposeString('name'),
    isDefault: t.exposeBoolean('isDefault'),
    externalReference: t.string({ nullable: true, resolve: (site) => site.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (site) => site.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (site) => site.updatedAt }),
  }),
});

/** What every authorization of an end user has, over a customer or a subscription. */
const EndUserAuthorization = builder.interfaceRef<CustomerAuthorizationData | SubscriptionAuthorizationData>('EndUserAuthorization').implement({
  description: 'An end user\'s authorization, valid in [validFrom, validUntil).',
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this authorization in the REST API.' }),
    endUserId: t.string({ resolve: (a) => a.endUser.id }),
    adminId: t.string({ resolve: (a) => a.admin.id }),
    validFrom: t.field({ type: DateTime, nullable: true, resolve: (a) => a.validFrom ?? null }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (a) => a.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    isCurrentlyValid: t.exposeBoolean('isCurrentlyValid'),
    createdAt: t.field({ type: DateTime, resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (a) => a.updatedAt }),
  }),
});

export const EndUserCustomerAuthorization = builder.objectRef<CustomerAuthorizationData>('EndUserCustomerAuthorization').implement({
  interfaces: [EndUserAuthorization],
  description: 'An end user\'s authorization over a customer (REST: /end-user/{id}/authorization-customer).',
  isTypeOf: (value) => isDataOf(value, 'CustomerAuthorization'),
  fields: (t) => ({
    customerId: t.string({ resolve: (a) => a.customer.id }),
    customerExternalReference: t.string({ nullable: true, resolve: (a) => a.customer.externalReference }),
    role: t.field({ type: CustomerAuthorizationRole, resolve: (a) => a.role }),
  }),
});

export const EndUserSubscriptionAuthorization = builder.objectRef<SubscriptionAuthorizationData>('EndUserSubscriptionAuthorization').implement({
  interfaces: [EndUserAuthorization],
  description: 'An end user\'s authorization over an MSP token subscription (REST: /end-user/{id}/authorization-msp-token-subscription).',
  isTypeOf: (value) => isDataOf(value, 'SubscriptionAuthorization'),
  fields: (t) => ({
    subscriptionId: t.string({ resolve: (a) => a.subscription.id }),
    subscriptionExternalReference: t.string({ nullable: true, resolve: (a) => a.subscription.externalReference }),
    role: t.field({ type: SubscriptionAuthorizationRole, resolve: (a) => a.role }),
  }),
});

const CustomerAuthorizationConnection = builder.connectionObject(
  { type: EndUserCustomerAuthorization, name: 'EndUserCustomerAuthorizationConnection' }, { name: 'EndUserCustomerAuthorizationEdge' },
);
const SubscriptionAuthorizationConnection = builder.connectionObject(
  { type: EndUserSubscriptionAuthorization, name: 'EndUserSubscriptionAuthorizationConnection' }, { name: 'EndUserSubscriptionAuthorizationEdge' },
);

export const EndUser = builder.loadableNode('EndUser', {
  description: 'A person using an app, authorized over customers and subscriptions (REST: /end-user).',
  id: { resolve: (endUser: EndUserData) => endUser.id },
  cacheResolved: (endUser) => endUser.id,
  isTypeOf: (value) => isDataOf(value, 'EndUser'),
  load: (ids: string[], context) => endUsersByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this end user in the REST API.' }),
    administration: t.field({ type: Administration, resolve: (endUser) => endUser.admin.id }),
    site: t.field({ type: EndUserSite, nullable: true, resolve: (endUser) => endUser.site?.id ?? null }),
    username: t.exposeString('username'),
    email: t.string({ nullable: true, resolve: (endUser) => endUser.email ?? null }),
    name: t.string({ nullable: true, resolve: (endUser) => endUser.name ?? null }),
    localeId: t.string({ nullable: true, resolve: (endUser) => endUser.localeId ?? null }),
    externalReference: t.string({ nullable: true, resolve: (endUser) => endUser.externalReference ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (endUser) => endUser.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (endUser) => endUser.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (endUser) => endUser.updatedAt }),
    customerAuthorizations: t.connection({
      type: EndUserCustomerAuthorization, description: 'REST: GET /end-user/{id}/authorization-customer.',
      resolve: async (endUser, args, context) => listConnection<CustomerAuthorizationData>(await customerAuthorizationList(context.em, endUser.id), args),
    }, CustomerAuthorizationConnection),
    subscriptionAuthorizations: t.connection({
      type: EndUserSubscriptionAuthorization, description: 'REST: GET /end-user/{id}/authorization-msp-token-subscription.',
      resolve: async (endUser, args, context) => listConnection<SubscriptionAuthorizationData>(await subscriptionAuthorizationList(context.em, endUser.id), args),
    }, SubscriptionAuthorizationConnection),
  }),
});

const EndUserConnection = builder.connectionObject({ type: EndUser, name: 'EndUserConnection' }, { name: 'EndUserEdge' });
const EndUserSiteConnection = builder.connectionObject({ type: EndUserSite, name: 'EndUserSiteConnection' }, { name: 'EndUserSiteEdge' });

const endUserId = (raw: string | number) => idArg(raw, 'EndUser');

builder.queryFields((t) => ({
  endUsers: t.connection({
    type: EndUser,
    description: 'The end users the caller may see, by id (REST: GET /end-user).',
    args: { adminId: t.arg.id({ description: 'Only end users of this administration (slug or global ID).' }) },
    resolve: (_root, args, context) => listConnection<EndUserData>(
      endUserList(context.em, args.adminId ? { adminId: administrationKey(String(args.adminId)) } : {}), args),
  }, EndUserConnection),
  endUser: t.field({
    type: EndUser, nullable: true, description: 'An end user; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }) },
    resolve: (_root, args, context) => findEndUser(context.em, endUserId(args.id)),
  }),
  endUserSites: t.connection({
    type: EndUserSite, description: 'The end-user sites the caller may see, by id (REST: GET /end-user-site).',
    resolve: (_root, args, context) => listConnection<EndUserSiteData>(endUserSiteList(context.em), args),
  }, EndUserSiteConnection),
}));

export const EndUserInput = builder.inputType('EndUserInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs adminId and username; adminId and '
    + 'siteId (default: the administration\'s default site) are set on creation only. username, email and externalReference are unique '
    + 'in the instance, compared case-insensitively (duplicate); username and email must be Unicode NFC.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration.' }),
    siteId: t.id({ description: 'Global ID or REST id of an end-user site of the administration.' }),
    username: t.string(),
    email: t.string(),
    name: t.string(),
    localeId: t.string(),
    externalReference: t.string(),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body (rest/end-users/end-user.routes.ts). */
const endUserRules = yup.object({
  adminId: text(64).nullable(),
  siteId: text(64).nullable(),
  username: nfcText().min(1, '${path} must not be empty').nullable(),
  email: email().min(1, '${path} must be an email address').nullable(),
  name: text().nullable(),
  localeId: text(35).nullable(),
  externalReference: externalRef().nullable(),
});

/** The input as the services take it (also the App's registerEndUser, schema/types/viewer-mutations.ts). */
export function endUserPatch(input: typeof EndUserInput.$inferInput): EndUserPatch {
  const patch = { ...input } as EndUserPatch;
  if (typeof input.adminId === 'string') patch.adminId = administrationKey(input.adminId);
  if (typeof input.siteId === 'string') patch.siteId = idArg(input.siteId, 'EndUserSite');
  validate(endUserRules, patch);
  return patch;
}

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
const AuthorizationInputFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  validFrom: t.field({ type: DateTime }),
  validUntil: t.field({ type: DateTime, description: 'Exclusive; after validFrom; null: open-ended.' }),
  defunct: t.boolean({ description: 'A defunct authorization stays defunct.' }),
});

const CustomerAuthorizationInput = builder.inputType('EndUserCustomerAuthorizationInput', {
  description: 'JSON Merge Patch semantics. role defaults to OWNER. Only customers of the end user\'s administration can be authorized.',
  fields: (t) => ({ role: t.field({ type: CustomerAuthorizationRole }), ...AuthorizationInputFields(t) }),
});

const SubscriptionAuthorizationInput = builder.inputType('EndUserSubscriptionAuthorizationInput', {
  description: 'JSON Merge Patch semantics. role defaults to DRIVER. Only subscriptions of the end user\'s administration can be authorized.',
  fields: (t) => ({ role: t.field({ type: SubscriptionAuthorizationRole }), ...AuthorizationInputFields(t) }),
});

const siteRules = yup.object({ adminId: text(64).required('${path} is required'), name: text(255).nullable(), externalReference: externalRef().nullable() });

builder.mutationFields((t) => ({
  createEndUser: t.field({
    type: EndUser, nullable: true, description: 'Creates an end user (REST: POST /end-user).',
    args: { input: t.arg({ type: EndUserInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createEndUser(em, endUserPatch(args.input))),
  }),
  updateEndUser: t.field({
    type: EndUser, nullable: true, description: 'Merge-updates an end user; adminId and siteId are ignored (REST: POST /end-user/{id}).',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), input: t.arg({ type: EndUserInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateEndUser(em, endUserId(args.id), endUserPatch(args.input))),
  }),
  updateEndUserCustomerAuthorization: t.field({
    type: EndUserCustomerAuthorization, nullable: true,
    description: 'Creates or merge-updates the authorization of an end user over a customer (REST: POST /end-user/{id}/authorization-customer/{customer_id}).',
    args: {
      endUserId: t.arg.id({ required: true, description: 'Global ID or REST id of the end user.' }),
      customerId: t.arg.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference> of the customer.' }),
      input: t.arg({ type: CustomerAuthorizationInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => mergeCustomerAuthorization(
      em, endUserId(args.endUserId), refFromArg(String(args.customerId), 'Customer'), { ...args.input } as AuthorizationPatch)),
  }),
  updateEndUserSubscriptionAuthorization: t.field({
    type: EndUserSubscriptionAuthorization, nullable: true,
    description: 'Creates or merge-updates the authorization of an end user over an MSP token subscription '
      + '(REST: POST /end-user/{id}/authorization-msp-token-subscription/{subscription_id}).',
    args: {
      endUserId: t.arg.id({ required: true, description: 'Global ID or REST id of the end user.' }),
      subscriptionId: t.arg.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference> of the subscription.' }),
      input: t.arg({ type: SubscriptionAuthorizationInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => mergeSubscriptionAuthorization(
      em, endUserId(args.endUserId), String(args.subscriptionId).startsWith('ext_ref.') ? String(args.subscriptionId) : idArg(args.subscriptionId, 'TokenSubscription'),
      { ...args.input } as SubscriptionAuthorizationPatch)),
  }),
  createEndUserSite: t.field({
    type: EndUserSite, nullable: true, description: 'Creates an end-user site (REST: POST /end-user-site).',
    args: { adminId: t.arg.id({ required: true, description: 'Slug or global ID.' }), name: t.arg.string(), externalReference: t.arg.string() },
    resolve: (_root, args, context) => {
      const input = { adminId: administrationKey(String(args.adminId)), name: args.name, externalReference: args.externalReference };
      validate(siteRules, input);
      return mutate(context, FIELD_ARGUMENTS, (em) => createSite(em, input));
    },
  }),
}));
