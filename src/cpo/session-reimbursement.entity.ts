import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import type { Subtotal } from '../pricing/price-session.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** The EVSE a reimbursement was calculated for, as matching found it. */
export interface ReimbursedEvse {
  evse_uid: string;
  evse_id: string | null;
  location_id: string | null;
  connector_id: string | null;
  address: { street: string | null; postal_code: string | null; city: string | null; country: string | null } | null;
}

/**
 * What the owner of an EVSE (the arrangement's customer) is reimbursed for one CPO session under
 * one arrangement (every arrangement valid at the session start gets a record). Processing the
 * session again replaces the amounts and raises `version` when they changed; billing follows the
 * version (src/cpo/cpo-reimbursement.source.ts).
 */
export const SessionReimbursementSchema = defineEntity({
  name: 'SessionReimbursement',
  tableName: 'cpo_charge_session_reimbursement',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['sessionId', 'arrangementId'] }],
  // By administration and session: a backfill reads an administration's records by session id ranges.
  indexes: [{ properties: ['admin', 'sessionId'] }, { properties: ['customerId'] }, { properties: ['evseUid'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    sessionId: p.uuid(),
    arrangementId: p.uuid(),
    arrangementExternalReference: p.string().nullable(),
    planId: p.uuid().nullable(),
    mode: p.string(),
    customerId: p.uuid(),
    customerExternalReference: p.string().nullable(),
    version: p.integer().default(1),
    currency: p.string().length(3),
    startAt: p.datetime(),
    endAt: p.datetime(),
    evseUid: p.string().columnType('citext'),
    evse: p.json<ReimbursedEvse>(),
    tariffCode: p.string().nullable(),
    chargingPeriods: p.json<unknown[]>().onCreate(() => []),
    subtotals: p.json<Subtotal[]>(),
    totalExclVat: p.decimal('string').precision(20).scale(2),
    totalVat: p.decimal('string').precision(20).scale(2),
    totalInclVat: p.decimal('string').precision(20).scale(2),
    vatCountry: p.string().length(2),
    vatKind: p.string(),
    vatPercent: p.decimal('string').precision(12).scale(6),
    explanation: p.json<string[]>().onCreate(() => []),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class SessionReimbursement extends SessionReimbursementSchema.class {}
SessionReimbursementSchema.setClass(SessionReimbursement);
recordsEvents(SessionReimbursement, 'cpo_charge_session_reimbursement');
