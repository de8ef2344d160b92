// The session reads both transports call (REST /msp-charge-session, /cpo-charge-session,
// /msp-charge-session-priced; GraphQL chargeSessions, pricingResults): filters, scope (the em's
// administration filter) and seek paging by id. Entities: their serializers walk the drop-out
// case and the pricing result's session.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { ChargeSession, type SessionSource, type SessionStatus } from './charge-session.entity.ts';
import { PricingResult } from './pricing-result.entity.ts';
import type { EndUserScope } from '../end-users/end-user-scope.ts';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import { findOffsetPage, type OffsetRange, type OffsetResult } from '../platform/offset-page.ts';

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

/** An end user's priced MSP session and its current pricing result (App API, GraphQL viewer). */
export interface EndUserSessionData {
  session: ChargeSession;
  result: PricingResult | null;
}

/** Priced MSP sessions of the subscriptions in the end user's scope (end-user-scope.ts), newest first. */
function endUserSessionWhere(scope: EndUserScope, id?: string): FilterQuery<ChargeSession> {
  return { source: 'charge_session', status: 'priced', subscriptionId: { $in: scope.subscriptionIds }, ...(id ? { id } : {}) };
}

async function withResults(em: Em, sessions: ChargeSession[]): Promise<EndUserSessionData[]> {
  const results = sessions.length
    ? await em.find(PricingResult, { $or: sessions.map((s) => ({ session: s.id, version: s.pricingVersion })) })
    : [];
  const bySession = new Map(results.map((r) => [r.session.id, r]));
  return sessions.map((session) => ({ session, result: bySession.get(session.id) ?? null }));
}

export async function endUserSessionPage(em: Em, scope: EndUserScope, range: OffsetRange): Promise<OffsetResult<EndUserSessionData>> {
  if (!scope.subscriptionIds.length) return { items: [], hasNextPage: false };
  const page = await findOffsetPage(em, ChargeSession, endUserSessionWhere(scope), range, { orderBy: { startAt: 'desc', id: 'desc' } });
  return { items: await withResults(em, page.items), hasNextPage: page.hasNextPage };
}

/** One session of the end user's scope, or 400 not_found. */
export async function getEndUserSession(em: Em, scope: EndUserScope, id: string): Promise<EndUserSessionData> {
  const session = isUuid(id) && scope.subscriptionIds.length
    ? await em.findOne(ChargeSession, endUserSessionWhere(scope, id))
    : null;
  if (!session) throw new NotFoundError('charge session');
  return (await withResults(em, [session]))[0];
}
