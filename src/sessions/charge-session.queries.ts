// The session reads both transports call (REST /msp-charge-session, /cpo-charge-session,
// /msp-charge-session-priced; GraphQL chargeSessions, pricingResults): filters, scope (the em's
// administration filter) and seek paging by id. Entities: their serializers walk the drop-out
// case and the pricing result's session.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { ChargeSession, type SessionSource, type SessionStatus } from './charge-session.entity.ts';
import { PricingResult } from './pricing-result.entity.ts';

export interface ChargeSessionFilter {
  source?: SessionSource;
  status?: SessionStatus;
  dropoutCaseId?: string;
  subscriptionId?: string;
  evseUid?: string;
  locationId?: string;
  startFrom?: Date;
  startUntil?: Date;
}

export function chargeSessionList(em: Em, filter: ChargeSessionFilter = {}): SeekList<ChargeSession> {
  const where: FilterQuery<ChargeSession> = {
    ...(filter.source ? { source: filter.source } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.dropoutCaseId ? { dropoutCase: filter.dropoutCaseId } : {}),
    ...(filter.subscriptionId ? { subscriptionId: filter.subscriptionId } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
    ...(filter.startFrom || filter.startUntil ? {
      startAt: { ...(filter.startFrom ? { $gte: filter.startFrom } : {}), ...(filter.startUntil ? { $lt: filter.startUntil } : {}) },
    } : {}),
  };
  return new SeekList<ChargeSession>(em, { entity: ChargeSession, where, entities: true });
}

/** Pricing results in order of creation (a session's versions in order). */
export function pricingResultList(em: Em, filter: { chargeSessionId?: string } = {}): SeekList<PricingResult> {
  return new SeekList<PricingResult>(em, {
    entity: PricingResult, where: filter.chargeSessionId ? { session: filter.chargeSessionId } : {}, entities: true, populate: ['session'],
  });
}
