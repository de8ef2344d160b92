import { normalize } from '../../src/money/decimal.ts';
import { SESSION_STATUSES } from '../../src/sessions/charge-session.entity.ts';
import { repriceSession } from '../../src/sessions/reprocess.service.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { listConnection } from '../connection.ts';
import {
  chargeSessionList, chargeSessionsByIds, pricingResultList, pricingResultsOfSessions, type ChargeSessionData, type PricingResultData,
} from '../../src/sessions/charge-session.queries.ts';
import { uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import * as yup from 'yup';
import { enumOf } from '../enum.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { DropoutCase } from './dropout-case.ts';
import { PricingResult, PricingResultConnection } from './pricing-result.ts';

const SessionStatus = enumOf('ChargeSessionStatus', SESSION_STATUSES, 'RECEIVED until the pipeline priced it or dropped it out.');

export const ChargeSession = builder.loadableNode('ChargeSession', {
  description: 'A charge session as received and where the pipeline is with it (REST: /msp-charge-session).',
  id: { resolve: (s: ChargeSessionData) => s.id },
  cacheResolved: (s) => s.id,
  isTypeOf: (value) => isDataOf(value, 'ChargeSession'),
  load: (ids: string[], context) => chargeSessionsByIds(context.em, ids) as Promise<ChargeSessionData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this session in the REST API.' }),
    sessionId: t.exposeString('sessionId', { description: 'The sender\'s session id.' }),
    status: t.field({ type: SessionStatus, resolve: (s) => s.status }),
    tokenEvcoId: t.exposeString('evcoId'),
    cpoId: t.string({ nullable: true, resolve: (s) => s.cpoId ?? null }),
    evseId: t.string({ nullable: true, resolve: (s) => s.evseId ?? null }),
    startDateTime: t.field({ type: DateTime, resolve: (s) => s.startAt }),
    endDateTime: t.field({ type: DateTime, resolve: (s) => s.endAt }),
    timeZone: t.exposeString('timeZone'),
    country: t.exposeString('country'),
    totalEnergyKwh: t.string({ description: 'An exact decimal string.', resolve: (s) => normalize(s.energyKwh) }),
    receivedAt: t.field({ type: DateTime, resolve: (s) => s.receivedAt }),
    dropoutCase: t.field({ type: DropoutCase, nullable: true, resolve: (s) => s.dropoutCase?.id ?? null }),
    dropoutReason: t.string({ nullable: true, resolve: (s) => s.dropoutReason ?? null }),
    source: t.string({ description: 'charge_session (MSP) or cpo_charge_session (CPO: REST /cpo-charge-session).', resolve: (s) => s.source }),
    evseUid: t.string({ nullable: true, resolve: (s) => s.evseUid ?? null }),
    locationId: t.string({ nullable: true, description: 'CPO sessions: the location matching found.', resolve: (s) => s.locationId ?? null }),
    connectorId: t.string({ nullable: true, description: 'CPO sessions: the connector matching found.', resolve: (s) => s.connectorId ?? null }),
    totalReimbursementAmountExclVat: t.string({
      nullable: true, description: 'CPO sessions: the sum of its reimbursement records (a decimal string); null when none.',
      resolve: (s) => s.reimbursementExclVat ?? null,
    }),
    calculatedRoamingAmountExclVat: t.string({
      nullable: true, description: 'The roaming amount: calculated (roaming_enabled) or, for a CPO session without roaming calculation, as reported (a decimal string).',
      resolve: (s) => s.roamingCostExclVat ?? null,
    }),
    calculatedRoamingAmountInclVat: t.string({ nullable: true, resolve: (s) => s.roamingCostInclVat ?? null }),
    roamingAgreementId: t.string({ nullable: true, description: 'The roaming agreement of the calculation.', resolve: (s) => s.roamingAgreementId ?? null }),
    roamingPartnerId: t.string({
      nullable: true, description: 'The roaming partner of the amount: the CPO charging us (a session of POST /charge-session), or the MSP we charge '
        + '(a CPO session of its driver).',
      resolve: (s) => s.roamingPartnerId ?? null,
    }),
  }),
});

builder.objectField(ChargeSession, 'pricingResults', (t) => t.loadable({
  type: PricingResultConnection,
  byPath: true,
  description: 'Its pricing results, oldest first (REST: GET /msp-charge-session-priced?charge_session_id=).',
  args: { ...t.arg.connectionArgs() },
  load: (sessionIds: string[], context, args) => childConnectionsOf(sessionIds, args, (ids, range) => pricingResultsOfSessions(context.em, ids, range)),
  resolve: (session) => session.id,
}));

const refId = (raw: string, typename: string) => {
  const ref = refFromArg(raw, typename, false);
  return 'id' in ref ? ref.id : raw;
};
const idRules = yup.object({
  dropoutCaseId: uuid().nullable(), subscriptionId: uuid().nullable(), chargeSessionId: uuid().nullable(), customerId: uuid().nullable(),
});
const sessionFilterRules = yup.object({
  tokenEvcoId: yup.string().nullable().trim().min(1, '${path} must not be empty').max(64, '${path} must hold at most ${max} characters'),
  startUntil: yup.date().nullable().test('after', '${path} must be after startFrom', function (until) {
    const from = this.parent.startFrom as Date | null | undefined;
    return !from || !until || until > from;
  }),
});

const ChargeSessionConnection = builder.connectionObject({ type: ChargeSession, name: 'ChargeSessionConnection' }, { name: 'ChargeSessionEdge' });

const sessionId = (id: string | number) => {
  const ref = refFromArg(String(id), 'ChargeSession', false);
  return 'id' in ref ? ref.id : '';
};

builder.queryFields((t) => ({
  chargeSessions: t.connection({
    type: ChargeSession,
    description: 'Charge sessions by id (REST: GET /msp-charge-session).',
    args: {
      status: t.arg({ type: SessionStatus }),
      cpo: t.arg.boolean({ description: 'true: only CPO sessions (REST /cpo-charge-session); false: only MSP submissions.' }),
      evseUid: t.arg.string({ description: 'Only sessions at this EVSE.' }),
      dropoutCaseId: t.arg.id({ description: 'Only sessions of this drop-out case (global ID or REST id).' }),
      subscriptionId: t.arg.id({ description: 'Only sessions of this token subscription (REST id).' }),
      customerId: t.arg.id({ description: 'Only sessions of this customer (global ID or REST id).' }),
      tokenEvcoId: t.arg.string({ description: 'Only sessions of this token (its EVCO id, with or without separators and check digit).' }),
      startFrom: t.arg({ type: DateTime, description: 'Only sessions that started at or after this moment.' }),
      startUntil: t.arg({ type: DateTime, description: 'Only sessions that started before this moment.' }),
    },
    resolve: (_root, args, context) => {
      const dropoutCaseId = args.dropoutCaseId ? refId(String(args.dropoutCaseId), 'DropoutCase') : undefined;
      const subscriptionId = args.subscriptionId ? refId(String(args.subscriptionId), 'TokenSubscription') : undefined;
      const customerId = args.customerId ? refId(String(args.customerId), 'Customer') : undefined;
      validate(idRules, { dropoutCaseId, subscriptionId, customerId });
      validate(sessionFilterRules, { tokenEvcoId: args.tokenEvcoId, startFrom: args.startFrom, startUntil: args.startUntil });
      const source = args.cpo === true ? 'cpo_charge_session' : args.cpo === false ? 'charge_session' : undefined;
      return listConnection<ChargeSessionData>(chargeSessionList(context.em, {
        source, status: args.status ?? undefined, dropoutCaseId, subscriptionId, evseUid: args.evseUid || undefined,
        customerId, evcoId: args.tokenEvcoId?.trim() || undefined, startFrom: args.startFrom ?? undefined, startUntil: args.startUntil ?? undefined,
      }, []), args);
    },
  }, ChargeSessionConnection),
  chargeSession: t.field({
    type: ChargeSession, nullable: true, description: 'A charge session of either source (REST: GET /msp-charge-session/{id}); null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }) },
    resolve: (_root, args) => sessionId(args.id) || null,
  }),
  pricingResults: t.connection({
    type: PricingResult,
    description: 'Pricing results in order of creation (REST: GET /msp-charge-session-priced).',
    args: { chargeSessionId: t.arg.id({ description: 'Only the results of this session (global ID or REST id).' }) },
    resolve: (_root, args, context) => {
      const chargeSessionId = args.chargeSessionId ? refId(String(args.chargeSessionId), 'ChargeSession') : undefined;
      validate(idRules, { chargeSessionId });
      return listConnection<PricingResultData>(pricingResultList(context.em, { chargeSessionId }), args);
    },
  }, PricingResultConnection),
}));

builder.mutationFields((t) => ({
  repriceChargeSession: t.field({
    type: ChargeSession,
    nullable: true,
    description: 'Sends the session through the pipeline again: a new pricing result with the next version (REST: POST /msp-charge-session/{id}/reprice).',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => repriceSession(em, sessionId(args.id))),
  }),
}));
