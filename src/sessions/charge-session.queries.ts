// The session reads both transports call (REST /msp-charge-session, /cpo-charge-session,
// /msp-charge-session-original, /msp-charge-session-priced; GraphQL chargeSessions, pricingResults,
// ChargeSession and PricingResult nodes, the viewer's sessions): filters, scope (the em's
// administration filter) and seek paging by id, answered as plain data.
import { raw, type FilterQuery, type RawQueryFragment } from '@mikro-orm/core';
import { evcoIdVariants } from '../msp/evco-id.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, markData, refOf } from '../platform/plain-reads.ts';
import { childPages } from '../platform/child-pages.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { ChargeSession, type SessionSource, type SessionStatus } from './charge-session.entity.ts';
import { PricingResult } from './pricing-result.entity.ts';
import { cpoSessionIdOf, unreadFields } from './session-reported.ts';
import type { EndUserScope } from '../end-users/end-user-scope.ts';
import { NotFoundError } from '../platform/errors.ts';
import { callerScope, canSeeAdministration, scopedRead, scopedReadOn, type AdminScope } from '../access/admin-scope.ts';
import { isUuid } from '../platform/ids.ts';
import { findOffsetPage, type OffsetRange, type OffsetResult } from '../platform/offset-page.ts';

/**
 * What a session's representations read (REST MSP and CPO sessions and their originals, events,
 * GraphQL ChargeSession): every read of sessions selects these columns only, a list page about
 * two thirds of the row (not the token, the bypassed checks, the matched EVSE, the roaming
 * calculation's parts).
 */
const SESSION_READ_FIELDS = ['id', 'source', 'sessionId', 'cpoId', 'evcoId', 'startAt', 'endAt', 'energyKwh', 'idleSeconds', 'timeZone', 'country',
  'evseId', 'evseUid', 'payload', 'receivedAt', 'status', 'admin', 'driverAdmin', 'subscriptionId', 'customerId', 'dropoutCase', 'dropoutReason',
  'dropoutMessage', 'pricingVersion', 'matchAttempts', 'retryAt', 'locationId', 'connectorId', 'reimbursementExclVat', 'roamingPartnerId',
  'roamingAgreementId', 'roamingCostSource', 'roamingCostExclVat', 'roamingCostInclVat', 'updatedAt'] as const satisfies readonly (keyof Data<ChargeSession>)[];

export type ChargeSessionData = Pick<Data<ChargeSession>, typeof SESSION_READ_FIELDS[number]>;

/** A pricing result with the CPO's id of its session (REST cpo_session_id: session-reported.ts). */
export type PricingResultData = Data<PricingResult> & { cpoSessionId: string };

export interface ChargeSessionFilter {
  source?: SessionSource;
  status?: SessionStatus;
  dropoutCaseId?: string;
  subscriptionId?: string;
  customerId?: string;
  /** A token's EVCO id, in any spelling (with or without separators and check digit: evcoIdVariants). */
  evcoId?: string;
  evseUid?: string;
  locationId?: string;
  startFrom?: Date;
  startUntil?: Date;
}

type Row = Record<string, any>;

const sessionOfRow = (row: Row): ChargeSessionData => ({
  ...row, admin: refOf(row.admin), driverAdmin: refOf(row.driverAdmin), dropoutCase: refOf(row.dropoutCase),
}) as ChargeSessionData;

/**
 * The two sides of a session (charge-session.entity.ts): a CPO session of another administration's
 * driver (B's driver at A's EVSE) is A's on its CPO side and B's on its driver's side. Each view shows
 * a caller what its side is and hides the other side's facts when the caller does not see that side's
 * administration: the CPO views (/cpo-charge-session, GraphQL chargeSessions(cpo: true)) are scoped
 * by `admin` and show the driver's side as of a driver not ours; the MSP views (/msp-charge-session,
 * its originals and repricing, GraphQL chargeSessions) are scoped by `driverAdmin`, whose
 * administration they answer, without the EVSE side's match and reimbursement.
 */
type Sees = (adminId: string) => boolean;

/** Who sees a view: a caller's scope, or the credentials of an event's administration (null: only those of every administration). */
export const seenBy = (scope: AdminScope | string | null): Sees => (typeof scope === 'string'
  ? (id) => id.toLowerCase() === scope.toLowerCase()
  : (id) => scope === null || canSeeAdministration(scope, id));

/** The statuses of a driver's side that a CPO view of another administration shows as processed (the CPO side was done). */
const DRIVER_SIDE_STATUSES: SessionStatus[] = ['priced', 'dropout', 'discarded'];

export function cpoSideView(s: ChargeSessionData, sees: Sees): ChargeSessionData {
  if (!s.driverAdmin || sees(s.driverAdmin.id)) return s;
  return markData({
    ...s, status: DRIVER_SIDE_STATUSES.includes(s.status) ? 'processed' : s.status, customerId: null, subscriptionId: null, pricingVersion: 0,
    dropoutCase: null, dropoutReason: null, dropoutMessage: null,
    roamingPartnerId: null, roamingAgreementId: null, roamingCostSource: null, roamingCostExclVat: null, roamingCostInclVat: null,
  }, 'ChargeSession');
}

export function mspSideView(s: ChargeSessionData, sees: Sees): ChargeSessionData {
  const cpoSide = s.admin;
  const hidesCpoSide = !!cpoSide && !sees(cpoSide.id);
  // Most sessions: one administration for both sides, or none yet (each row of a list passes here).
  if (!hidesCpoSide && (!s.driverAdmin || s.driverAdmin.id.toLowerCase() === cpoSide?.id.toLowerCase())) return s;
  const view = { ...s, admin: s.driverAdmin ?? s.admin };
  if (hidesCpoSide) Object.assign(view, { locationId: null, connectorId: null, reimbursementExclVat: null, matchAttempts: 0, retryAt: null });
  return markData(view, 'ChargeSession');
}

/** A GraphQL node: the MSP view when the caller sees the driver's side, else the CPO view. */
const nodeView = (sees: Sees) => (s: ChargeSessionData) => (!s.driverAdmin || sees(s.driverAdmin.id) ? mspSideView(s, sees) : cpoSideView(s, sees));

/**
 * What a pricing result is read with: its own columns and the three of its session that its CPO
 * session id is read from (session-reported.ts: the source, the session id and the one member of
 * the body), never the session's whole row. An export pages through millions of results a
 * thousand at a time, so the rows come as the database answers them (SeekList `rawRows`) and
 * `resultOfColumns` shapes them.
 */
const RESULT_FIELDS = ['*', 'session.source as session_source', 'session.sessionId as session_session_id',
  raw(`"session"."payload" -> 'cpo_session_id' as "session_cpo_session_id"`)];

function resultOfColumns(em: Em): (row: Row) => PricingResultData {
  const platform = em.getPlatform();
  return (row) => ({
    id: row.id,
    session: { id: row.session_id },
    version: row.version,
    admin: { id: row.admin_id },
    customerId: row.customer_id,
    subscriptionId: row.subscription_id,
    subscriptionExternalReference: row.subscription_external_reference,
    tokenEvcoId: row.token_evco_id,
    currency: row.currency,
    ratePlanId: row.rate_plan_id,
    ratePlanVersionId: row.rate_plan_version_id,
    rule: row.rule,
    subtotals: row.subtotals,
    totalExclVat: row.total_excl_vat,
    totalVat: row.total_vat,
    totalInclVat: row.total_incl_vat,
    creditUsed: row.credit_used,
    annotations: row.annotations,
    roamingAgreement: row.roaming_agreement,
    explanation: row.explanation,
    createdAt: platform.parseDate(row.created_at),
    cpoSessionId: cpoSessionIdOf({ source: row.session_source, sessionId: row.session_session_id, payload: { cpo_session_id: row.session_cpo_session_id } }),
  });
}

/** The data of a pricing result entity and the session it prices. */
export function pricingResultData(result: PricingResult, session: Pick<ChargeSession, 'source' | 'sessionId' | 'payload'>): PricingResultData {
  return Object.assign(plainData(result), { cpoSessionId: cpoSessionIdOf(session) });
}

/**
 * Rows of msp_charge_session as PostgreSQL answers `select *` (column names; a writer's RETURNING
 * rows), shaped as the reads shape them: what getChargeSession would answer in that transaction.
 */
export function chargeSessionDataOfRows(em: Em, rows: readonly Row[]): ChargeSessionData[] {
  const meta = em.getMetadata(ChargeSession);
  const driver = em.getDriver();
  return rows.map((row) => {
    const whole = sessionOfRow(driver.mapResult(row, meta) as Row) as Row;
    // The columns a read selects (SESSION_READ_FIELDS), not every column the writer returned.
    const read: Row = {};
    for (const field of SESSION_READ_FIELDS) read[field] = whole[field];
    return markData(read as ChargeSessionData, meta.className);
  });
}

/**
 * Rows of msp_pricing_result as PostgreSQL answers `select *` (a timestamp as text or a Date), with
 * the source, session id and body of their sessions, shaped as the list shapes its rows (resultOfColumns).
 */
export function pricingResultDataOfRows(em: Em, rows: readonly Row[], sessionOf: (id: string) => Pick<ChargeSessionData, 'source' | 'sessionId' | 'payload'>): PricingResultData[] {
  const meta = em.getMetadata(PricingResult);
  const shape = resultOfColumns(em);
  return rows.map((row) => {
    const session = sessionOf(row.session_id);
    const cpoSessionId = (session.payload as Row | null | undefined)?.cpo_session_id;
    return markData(shape({
      ...row, created_at: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
      session_source: session.source, session_session_id: session.sessionId, session_cpo_session_id: cpoSessionId === undefined ? null : cpoSessionId,
    }), meta.className);
  });
}

/**
 * The body a list reads: whole (the session as received), or without the fields its endpoints know
 * that the list's readers do not read (`reads`: the fields they read, session-reported.ts), removed
 * by PostgreSQL (`payload - '{...}'`, about a microsecond a row): a page does not parse charge
 * periods it does not show.
 */
function selection(reads: readonly string[] | undefined): (string | RawQueryFragment)[] {
  if (!reads) return [...SESSION_READ_FIELDS];
  const unread = unreadFields(reads);
  if (unread.some((name) => !/^[a-z_]+$/.test(name))) throw new Error('a session field name that is not a plain identifier');
  const body = raw(`"e"."payload" - '{${unread.join(',')}}'::text[] as "payload"`);
  return SESSION_READ_FIELDS.map((field) => (field === 'payload' ? body : field));
}

type SessionView = 'cpo' | 'msp' | 'node';

/** The scope of each view: the CPO side's administration, the driver's side's, or either (a node). */
function viewScope(em: Em, where: FilterQuery<ChargeSession>, view: SessionView) {
  const w = where as Record<string, unknown>;
  if (view === 'cpo') return scopedRead(em, w, 'admin');
  return scopedReadOn(em, w, view === 'msp' ? ['driverAdmin'] : ['admin', 'driverAdmin']);
}

const sessions = (em: Em, view: SessionView, where: FilterQuery<ChargeSession> = {}, reads?: readonly string[]) => {
  const sees = seenBy(callerScope(em));
  const shown = view === 'cpo' ? (s: ChargeSessionData) => cpoSideView(s, sees) : view === 'msp' ? (s: ChargeSessionData) => mspSideView(s, sees) : nodeView(sees);
  return new SeekList<ChargeSessionData>(em, {
    entity: ChargeSession, ...viewScope(em, where, view), fields: selection(reads), plainColumns: true, map: (row) => shown(sessionOfRow(row)),
    feed: 'sessions',
  });
};

/**
 * A CPO view's filters on the driver's side: a status it shows as another administration's driver's
 * side hides it (processed), and customer and subscription filters find only sessions whose driver's
 * side the caller sees.
 */
function cpoViewFilter(em: Em, filter: ChargeSessionFilter): Record<string, unknown> {
  const scope = callerScope(em);
  const driverSeen = scope.all ? {} : { driverAdmin: { $in: scope.ids } };
  const driverFilters = filter.subscriptionId || filter.customerId ? driverSeen : {};
  if (!filter.status || scope.all) return { ...driverFilters, ...(filter.status ? { status: filter.status } : {}) };
  if (filter.status === 'processed') {
    return { ...driverFilters, $or: [{ status: 'processed' }, { status: { $in: DRIVER_SIDE_STATUSES }, driverAdmin: { $nin: scope.ids } }] };
  }
  return { ...driverFilters, status: filter.status, ...(DRIVER_SIDE_STATUSES.includes(filter.status) ? driverSeen : {}) };
}
/**
 * A drop-out case filter matches only a case the caller sees (of its administrations): a CPO
 * session's case may be its driver's side's, another administration's (found by probing,
 * 2026-11-29: A's CPO view filtered by B's case id found A's session, telling it was in B's case).
 */
function caseSeen(em: Em, caseId: string): string | { id: string; admin: { $in: string[] } } {
  const scope = callerScope(em);
  return scope.all ? caseId : { id: caseId, admin: { $in: scope.ids } };
}
const results = (em: Em, where: FilterQuery<PricingResult> = {}, feed = true) => new SeekList<PricingResultData>(em, {
  entity: PricingResult, ...scopedRead(em, where as Record<string, unknown>, 'admin'), fields: RESULT_FIELDS, joinColumns: ['session'], rawRows: true,
  map: resultOfColumns(em), ...(feed ? { feed: 'pricingResults' as const } : {}),
});

/**
 * Sessions by id, filtered. `reads`: the fields of each stored body its caller reads
 * (session-reported.ts); without it the body is read whole (the sessions as received). The list of
 * CPO sessions is the CPO view, any other the MSP view.
 */
export function chargeSessionList(em: Em, filter: ChargeSessionFilter = {}, reads?: readonly string[]): SeekList<ChargeSessionData> {
  const view = filter.source === 'cpo_charge_session' ? 'cpo' : 'msp';
  return sessions(em, view, {
    ...(filter.source ? { source: filter.source } : {}),
    ...(view === 'cpo' ? cpoViewFilter(em, filter) : filter.status ? { status: filter.status } : {}),
    ...(filter.dropoutCaseId ? { dropoutCase: caseSeen(em, filter.dropoutCaseId) } : {}),
    ...(filter.subscriptionId ? { subscriptionId: filter.subscriptionId } : {}),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.evcoId ? { evcoId: { $in: [...new Set([filter.evcoId, ...evcoIdVariants(filter.evcoId)])] } } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
    ...(filter.startFrom || filter.startUntil ? {
      startAt: { ...(filter.startFrom ? { $gte: filter.startFrom } : {}), ...(filter.startUntil ? { $lt: filter.startUntil } : {}) },
    } : {}),
  }, reads);
}

/** A session (either source) whose driver's side the caller may see, as the MSP view shows it, or 400 not_found. */
export async function getChargeSession(em: Em, id: string): Promise<ChargeSessionData> {
  const [session] = isUuid(id) ? await sessions(em, 'msp', { id }).all() : [];
  if (!session) throw new NotFoundError('charge session');
  return session;
}

/** A CPO session whose CPO side the caller may see (GET /cpo-charge-session/{id}): an MSP session is not one. */
export async function getCpoChargeSession(em: Em, id: string): Promise<ChargeSessionData> {
  const [session] = isUuid(id) ? await sessions(em, 'cpo', { id }).all() : [];
  if (session?.source !== 'cpo_charge_session') throw new NotFoundError('CPO charge session');
  return session;
}

/** Sessions the caller sees either side of (GraphQL nodes), each as the view of the side it sees. */
export function chargeSessionsByIds(em: Em, ids: readonly string[]): Promise<(ChargeSessionData | null)[]> {
  return inIdOrder(ids, (wanted) => sessions(em, 'node', { id: { $in: wanted } }).all());
}

/** Pricing results in order of creation (a session's versions in order). */
/** GraphQL ChargeSession.pricingResults: each session's page of its results (the result's own members), one query. */
export function pricingResultsOfSessions(em: Em, sessionIds: readonly string[], range: SeekRange): Promise<Data<PricingResult>[][]> {
  return childPages(em, { entity: PricingResult, parent: 'session' }, sessionIds, range);
}

/**
 * Pricing results by id. Of one session they commit in id order (each version's batch holds the
 * session, and takes its ids after the last one committed): no feed horizon to wait for.
 */
export function pricingResultList(em: Em, filter: { chargeSessionId?: string } = {}): SeekList<PricingResultData> {
  return filter.chargeSessionId ? results(em, { session: filter.chargeSessionId }, false) : results(em);
}

/** A pricing result the caller may see, or 400 not_found. */
export async function getPricingResult(em: Em, id: string): Promise<PricingResultData> {
  const [result] = isUuid(id) ? await results(em, { id }).all() : [];
  if (!result) throw new NotFoundError('pricing result');
  return result;
}

export function pricingResultsByIds(em: Em, ids: readonly string[]): Promise<(PricingResultData | null)[]> {
  return inIdOrder(ids, (wanted) => results(em, { id: { $in: wanted } }).all());
}

/** An end user's priced MSP session and its current pricing result (App API, GraphQL viewer). */
export interface EndUserSessionData {
  session: ChargeSessionData;
  result: PricingResultData | null;
}

/** Priced MSP sessions of the subscriptions in the end user's scope (end-user-scope.ts), newest first. */
// Either source: a CPO session of our driver at our EVSE is priced on the driver's subscription too,
// and is then the one report of that charge that is priced (src/session-processing/own-charge.ts).
function endUserSessionWhere(scope: EndUserScope, id?: string): FilterQuery<ChargeSession> {
  return { status: 'priced', subscriptionId: { $in: scope.subscriptionIds }, ...(id ? { id } : {}) };
}

async function withResults(em: Em, found: ChargeSession[]): Promise<EndUserSessionData[]> {
  const current = found.length
    ? await em.find(PricingResult, { $or: found.map((s) => ({ session: s.id, version: s.pricingVersion })) })
    : [];
  const bySession = new Map(current.map((r) => [r.session.id, r]));
  return found.map((session) => {
    const result = bySession.get(session.id);
    return { session: plainData(session), result: result ? pricingResultData(result, session) : null };
  });
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
