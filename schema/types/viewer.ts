// The `viewer` root for apps: an App credential names the end user with the header
// `X-SVC-End-User: <end_user_id>` and reads "my subscriptions, my sessions with prices, my
// invoices" in one query. Everything below reads through the end user's scope
// (src/end-users/end-user-scope.ts), loaded once per request, via the same queries modules as
// the REST App API. The types here are closed: they lead to nothing outside the scope (no
// customer, token or box node to walk on from). Admin credentials get FORBIDDEN.
import { GraphQLError } from 'graphql';
import * as yup from 'yup';
import { cancelEndUserSubscription, switchEndUserPlan } from '../../src/end-users/app-subscription.service.ts';
import { registerEndUser } from '../../src/end-users/register-end-user.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { endUserBoxes, getEndUserBox, type BoxData } from '../../src/billing/billing-box.queries.ts';
import { endUserWithScope, type EndUserScope } from '../../src/end-users/end-user-scope.ts';
import type { EndUserData } from '../../src/end-users/end-user.queries.ts';
import { normalize } from '../../src/money/decimal.ts';
import { endUserSubscriptions, getEndUserSubscription, type EndUserSubscriptionData } from '../../src/end-users/end-user-subscription.queries.ts';
import type { GraphQLErrorCode } from '../../src/platform/error-codes.ts';
import { DomainError, InvalidInputError } from '../../src/platform/errors.ts';
import { OFFSET_MAX_PAGE } from '../../src/platform/offset-page.ts';
import { endUserSessionPage, getEndUserSession, type EndUserSessionData } from '../../src/sessions/charge-session.queries.ts';
import type { SessionSubtotal } from '../../src/sessions/session-subtotals.ts';
import { builder } from '../builder.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../connection.ts';
import type { GraphQLContext } from '../context.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { endUserPatch } from './end-user.ts';

export const END_USER_HEADER = 'x-svc-end-user';

interface ViewerData { endUser: EndUserData; scope: EndUserScope }

/** Not found or out of scope: null, as elsewhere in the schema. */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

function pageArgs(first: number | null | undefined, page: number | null | undefined) {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (size < 1 || size > MAX_PAGE_SIZE) throw new InvalidInputError(`first must lie in 1..${MAX_PAGE_SIZE}`, { path: ['first'] });
  const number = page ?? 1;
  if (number < 1 || number > OFFSET_MAX_PAGE) throw new InvalidInputError(`page must lie in 1..${OFFSET_MAX_PAGE}`, { path: ['page'] });
  return { page: number, pageSize: size };
}

const ViewerSubscription = builder.objectRef<EndUserSubscriptionData>('ViewerSubscription').implement({
  description: 'A token subscription the end user is authorized for (directly or through its customer).',
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id in the REST API.' }),
    customerId: t.string({ resolve: (s) => s.customer.id }),
    planId: t.string({ resolve: (s) => s.plan.id }),
    planName: t.string({ resolve: (s) => s.plan.name }),
    externalReference: t.string({ nullable: true, resolve: (s) => s.externalReference ?? null }),
    validFrom: t.field({ type: DateTime, resolve: (s) => s.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (s) => s.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    isCurrentlyValid: t.boolean({ description: 'Not defunct and valid now (REST: is_currently_valid of the App API).', resolve: (s) => s.isCurrentlyValid }),
    monetaryCredit: t.string({ description: 'The credit balance, excl. VAT (exact decimal).', resolve: (s) => normalize(s.monetaryCreditBalance) }),
  }),
});

const ViewerSessionSubtotal = builder.objectRef<SessionSubtotal>('ViewerSessionSubtotal').implement({
  fields: (t) => ({
    kind: t.exposeString('kind'),
    rateLabel: t.exposeString('rate_label'),
    rate: t.exposeString('rate'),
    rateUnit: t.exposeString('rate_unit'),
    volume: t.exposeString('volume'),
    amountExclVat: t.exposeString('amount_excl_vat'),
    vatPercent: t.exposeString('vat_percent'),
    vatAmountUnrounded: t.exposeString('vat_amount_unrounded'),
    vatAmount: t.exposeString('vat_amount'),
    amountInclVat: t.exposeString('amount_incl_vat'),
  }),
});

const ViewerChargeSession = builder.objectRef<EndUserSessionData>('ViewerChargeSession').implement({
  description: 'A priced MSP charge session of one of the end user\'s subscriptions, with its current price.',
  fields: (t) => ({
    databaseId: t.string({ description: 'The id in the REST API.', resolve: (d) => d.session.id }),
    sessionId: t.string({ resolve: (d) => d.session.sessionId }),
    subscriptionId: t.string({ resolve: (d) => d.session.subscriptionId! }),
    tokenEvcoId: t.string({ resolve: (d) => d.session.evcoId }),
    evseId: t.string({ nullable: true, resolve: (d) => d.session.evseId ?? null }),
    startDateTime: t.field({ type: DateTime, resolve: (d) => d.session.startAt }),
    endDateTime: t.field({ type: DateTime, resolve: (d) => d.session.endAt }),
    totalEnergyKwh: t.string({ resolve: (d) => normalize(d.session.energyKwh) }),
    currencyCode: t.string({ resolve: (d) => d.result?.currency ?? '' }),
    totalAmountExclVat: t.string({ resolve: (d) => d.result?.totalExclVat ?? '0.00' }),
    totalAmountInclVat: t.string({ resolve: (d) => d.result?.totalInclVat ?? '0.00' }),
    subtotals: t.field({ type: [ViewerSessionSubtotal], extensions: { listEstimate: 10 }, resolve: (d) => d.result?.subtotals ?? [] }),
  }),
});

interface DocumentRow { endUserId: string; boxId: string; filename: string; contentType: string; size: number; primary: boolean }

const ViewerBillingDocument = builder.objectRef<DocumentRow>('ViewerBillingDocument').implement({
  fields: (t) => ({
    filename: t.exposeString('filename'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size'),
    primary: t.exposeBoolean('primary'),
    path: t.string({
      description: 'Where the App API serves it (GET, with the App credential).',
      resolve: (d) => `/main/v1/${d.endUserId}/billing-box/${d.boxId}/document/${encodeURIComponent(d.filename)}`,
    }),
  }),
});

const ViewerBillingBox = builder.objectRef<BoxData & { endUserId: string }>('ViewerBillingBox').implement({
  description: 'A billing box of a customer the end user is authorized over.',
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id in the REST API.' }),
    customerId: t.exposeString('partyId'),
    state: t.exposeString('state'),
    periodFrom: t.field({ type: DateTime, resolve: (b) => b.periodFrom }),
    periodUntil: t.field({ type: DateTime, resolve: (b) => b.periodUntil }),
    currencyCode: t.exposeString('currency'),
    invoiceCode: t.string({ nullable: true, resolve: (b) => b.invoiceCode }),
    totalAmountExclVat: t.string({ resolve: (b) => b.totals.totalExclVat }),
    totalAmountInclVat: t.string({ resolve: (b) => b.totals.totalInclVat }),
    documents: t.field({
      type: [ViewerBillingDocument], extensions: { listEstimate: 5 },
      resolve: (b) => b.documents.filter((d) => !d.draft).map((d) => ({
        endUserId: b.endUserId, boxId: b.id, filename: d.filename, contentType: d.contentType, size: d.size, primary: d.primary,
      })),
    }),
  }),
});

const ViewerEndUser = builder.objectRef<EndUserData>('ViewerEndUser').implement({
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id in the REST API.' }),
    username: t.exposeString('username'),
    email: t.string({ nullable: true, resolve: (u) => u.email ?? null }),
    name: t.string({ nullable: true, resolve: (u) => u.name ?? null }),
    siteId: t.string({ nullable: true, resolve: (u) => u.site?.id ?? null }),
  }),
});

const FIRST = 'At most 100 (default 50).';

const Viewer = builder.objectRef<ViewerData>('Viewer').implement({
  description: 'What the end user named by X-SVC-End-User may see: only what their valid authorizations allow.',
  fields: (t) => ({
    endUser: t.field({ type: ViewerEndUser, resolve: (v) => v.endUser }),
    subscriptions: t.field({
      type: [ViewerSubscription], description: `The end user's subscriptions, oldest first. ${FIRST}`,
      args: { first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE }) },
      resolve: (v, args, context) => endUserSubscriptions(context.em, v.scope, pageArgs(args.first, 1).pageSize),
    }),
    subscription: t.field({
      type: ViewerSubscription, nullable: true, description: 'One subscription; null when the end user may not see it.',
      args: { id: t.arg.id({ required: true, description: 'REST id.' }) },
      resolve: (v, args, context) => orNull(() => getEndUserSubscription(context.em, v.scope, String(args.id))),
    }),
    chargeSessions: t.field({
      type: [ViewerChargeSession], description: `Priced sessions, newest first, by page (from 1). ${FIRST}`,
      args: { first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE }), page: t.arg.int({ defaultValue: 1 }) },
      resolve: async (v, args, context) => (await endUserSessionPage(context.em, v.scope, pageArgs(args.first, args.page))).items,
    }),
    chargeSession: t.field({
      type: ViewerChargeSession, nullable: true, description: 'One session; null when the end user may not see it.',
      args: { id: t.arg.id({ required: true, description: 'REST id.' }) },
      resolve: (v, args, context) => orNull(() => getEndUserSession(context.em, v.scope, String(args.id))),
    }),
    billingBoxes: t.field({
      type: [ViewerBillingBox], description: `Billing boxes of the customers the end user is authorized over, newest first. ${FIRST}`,
      args: { first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE }) },
      resolve: async (v, args, context) => (await endUserBoxes(context.em, v.scope, pageArgs(args.first, 1).pageSize))
        .map((b) => ({ ...b, endUserId: v.endUser.id })),
    }),
    billingBox: t.field({
      type: ViewerBillingBox, nullable: true, description: 'One billing box; null when the end user may not see it.',
      args: { id: t.arg.id({ required: true, description: 'REST id.' }) },
      resolve: async (v, args, context) => {
        const box = await orNull(() => getEndUserBox(context.em, v.scope, String(args.id)));
        return box && { ...box, endUserId: v.endUser.id };
      },
    }),
  }),
});

function forbidden(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN' satisfies GraphQLErrorCode, http: { status: 403 } } });
}

async function loadViewer(context: GraphQLContext): Promise<ViewerData> {
  if (context.actor.role !== 'app') throw forbidden('viewer is for App credentials (with the X-SVC-End-User header)');
  if (!context.endUserId) throw new DomainError('not_found', 'name the end user with the X-SVC-End-User header');
  return endUserWithScope(context.em, context.actor, context.endUserId);
}

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    description: 'App credentials only: the end user named by the X-SVC-End-User header (REST: the App API under /{end_user_id}/). '
      + 'An end user the credential may not act for is not_found.',
    resolve: (_root, _args, context) => loadViewer(context),
  }),
}));

// The App API's writes. An App credential authenticates to /graphql as for the REST App API and
// names its end user with the X-SVC-End-User header (as `viewer` reads); registering needs no end
// user: the new one goes to the credential's site. Only App credentials may call these
// (schema/permissions.ts lets them through; any other caller gets FORBIDDEN, like an Admin
// credential on the REST App API).
const RegisterEndUserInput = builder.inputType('RegisterEndUserInput', {
  description: 'username is required; the end user belongs to the App credential\'s site and its administration. username, email and '
    + 'externalReference are unique in the instance, compared case-insensitively (duplicate); username and email must be Unicode NFC.',
  fields: (t) => ({
    username: t.string({ required: true }),
    email: t.string(),
    name: t.string(),
    localeId: t.string(),
    externalReference: t.string(),
    externalUpdatedAt: t.field({ type: DateTime }),
  }),
});

const switchPlanRules = yup.object({ planId: text(64).nullable(), planExternalReference: text().nullable() });

function appOnly(context: GraphQLContext): void {
  if (context.actor.role !== 'app') throw forbidden('this mutation is for App credentials (the App API)');
}

builder.mutationFields((t) => ({
  registerEndUser: t.field({
    type: ViewerEndUser, nullable: true,
    description: 'App credentials only: registers an end user in the credential\'s site (REST: POST /enduser/register).',
    args: { input: t.arg({ type: RegisterEndUserInput, required: true }) },
    resolve: (_root, args, context) => {
      appOnly(context);
      return mutate(context, 'input', (em) => registerEndUser(em, context.actor, endUserPatch(args.input)));
    },
  }),
  cancelViewerSubscription: t.field({
    type: ViewerSubscription, nullable: true,
    description: 'App credentials only: ends a token subscription of the viewer now (REST: POST /{end_user_id}/msp-token-subscription/{subscription_id}/cancel). '
      + 'Needs a managing authorization.',
    args: { subscriptionId: t.arg.string({ required: true, description: 'The subscription\'s REST id (ViewerSubscription.databaseId).' }) },
    resolve: async (_root, args, context) => {
      const { scope } = await loadViewer(context);
      return mutate(context, FIELD_ARGUMENTS, (em) => cancelEndUserSubscription(em, scope, args.subscriptionId));
    },
  }),
  switchViewerSubscriptionPlan: t.field({
    type: ViewerSubscription, nullable: true,
    description: 'App credentials only: switches the plan of a token subscription of the viewer from now on; answers the successor '
      + '(REST: POST /{end_user_id}/msp-token-subscription/{subscription_id}/switch-plan). Exactly one of planId and planExternalReference.',
    args: {
      subscriptionId: t.arg.string({ required: true, description: 'The subscription\'s REST id (ViewerSubscription.databaseId).' }),
      planId: t.arg.string({ description: 'The plan\'s REST id.' }),
      planExternalReference: t.arg.string(),
    },
    resolve: async (_root, args, context) => {
      validate(switchPlanRules, { planId: args.planId, planExternalReference: args.planExternalReference });
      const { scope } = await loadViewer(context);
      return mutate(context, FIELD_ARGUMENTS, (em) => switchEndUserPlan(
        em, scope, args.subscriptionId, { planId: args.planId, planExternalReference: args.planExternalReference }));
    },
  }),
}));
