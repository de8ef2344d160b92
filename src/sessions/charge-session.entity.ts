import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DropoutCase } from './dropout-case.entity.ts';

export const SESSION_SOURCES = ['charge_session', 'cpo_charge_session'] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];
/** processed: a CPO session matched and reimbursed whose token is not one of the instance's (no MSP pricing). */
export const SESSION_STATUSES = ['received', 'priced', 'processed', 'dropout', 'discarded'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A charge session as received (`payload`) with the facts pricing needs pulled out of it. Rows
 * are written by the ingestion SQL (ingest-session.service.ts) and changed by the processing
 * batch. `admin` stays empty until the token resolved to a subscription: until then only
 * credentials of every administration see the session. A CPO session has two sides: `admin` is its
 * EVSE's administration (the CPO side: /cpo-charge-session, reimbursement, CPO drop-outs) and
 * `driverAdmin` its driver's (the MSP side: /msp-charge-session, pricing, MSP drop-outs);
 * charge-session.queries.ts shows each side to its own administration.
 */
export const ChargeSessionSchema = defineEntity({
  name: 'ChargeSession',
  tableName: 'msp_charge_session',
  filters: adminScopeFilter('admin'),
  indexes: [
    { properties: ['status', 'id'] }, { properties: ['subscriptionId', 'startAt'] }, { properties: ['customerId', 'id'] }, { properties: ['evcoId', 'id'] },
    { properties: ['admin', 'id'] }, { properties: ['driverAdmin', 'id'] },
  ],
  properties: {
    id: idProperty(),
    source: p.enum(SESSION_SOURCES),
    /** Idempotency: source, CPO party (or EVSE) and the sender's session id. */
    identityKey: identifierProperty().unique(),
    sessionId: p.string(),
    cpoId: p.string().nullable(),
    evcoId: identifierProperty(),
    startAt: p.datetime(),
    endAt: p.datetime(),
    energyKwh: p.decimal('string').precision(20).scale(6),
    idleSeconds: p.integer().default(0),
    timeZone: p.string(),
    country: p.string().length(2),
    evseId: p.string().nullable(),
    evseUid: p.string().columnType('citext').nullable(),
    payload: p.json<Record<string, unknown>>(),
    receivedAt: p.datetime(),
    status: p.enum(SESSION_STATUSES),
    admin: () => p.manyToOne(Administration).nullable(),
    /**
     * The administration of the driver's side: its subscription's once the token resolved, else
     * `admin` (a CPO session of a driver not ours, or not resolved yet). Set by processing.
     */
    driverAdmin: () => p.manyToOne(Administration).nullable(),
    tokenId: p.uuid().nullable(),
    subscriptionId: p.uuid().nullable(),
    customerId: p.uuid().nullable(),
    /** The administrations of the credential that submitted it (null: every): its driver's side is priced only on a token of one of them. */
    submitterAdminIds: p.json<string[]>().nullable(),
    /** Validity checks a bypass instruction set aside: kept for later retries and repricings, cleared by a resubmission. */
    bypassChecks: p.json<string[]>().onCreate(() => []),
    dropoutCase: () => p.manyToOne(DropoutCase).nullable().index().filters({ [ADMIN_SCOPE]: false }),
    dropoutReason: p.string().nullable(),
    dropoutMessage: p.text().nullable(),
    pricingVersion: p.integer().default(0),
    /** CPO sessions: matching attempts so far and when the next one is due (back-off). */
    matchAttempts: p.integer().default(0),
    retryAt: p.datetime().nullable(),
    /** CPO sessions: what matching found (the EVSE row, its location's id, the connector's id). */
    matchedEvseId: p.uuid().nullable(),
    locationId: p.string().columnType('citext').nullable(),
    connectorId: p.string().nullable(),
    /** CPO sessions: the sum of the session's reimbursement records (excl. VAT); null when none. */
    reimbursementExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    /**
     * Roaming (src/session-processing/roaming-costs.ts): the partner (the CPO of a /charge-session
     * session, the driver's MSP of a CPO session), the connection and agreement that applied, the
     * administration the amount belongs to (the EVSE's of a CPO session, which bills it; the MSP
     * customer's otherwise) and the amount; null when not roaming.
     */
    roamingPartnerId: p.uuid().nullable(),
    roamingConnectionId: p.uuid().nullable(),
    roamingAgreementId: p.uuid().nullable(),
    roamingAdminId: p.string().columnType('citext').nullable(),
    /** historical_tariff, rate_plan or reported. */
    roamingCostSource: p.string().nullable(),
    roamingCurrency: p.string().length(3).nullable(),
    roamingCostExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingCostVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingCostInclVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingVatKind: p.string().nullable(),
    roamingVatPercent: p.decimal('string').precision(12).scale(6).nullable(),
    roamingFlatExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingEnergyExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingTimeExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    roamingReservationExclVat: p.decimal('string').precision(20).scale(2).nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class ChargeSession extends ChargeSessionSchema.class {}
ChargeSessionSchema.setClass(ChargeSession);
