// One processing batch: claims received sessions (FOR UPDATE SKIP LOCKED, so several workers
// never take the same session), checks them, resolves token -> link -> subscription -> plan
// (src/msp/resolve-token.ts) -> rate plan version, prices them with the VAT rate valid at the
// start, applies monetary credits and writes a pricing result (next version) or a drop-out, all
// in one transaction. A session of a roaming partner gets its roaming cost first (src/roaming/,
// when the instance has roaming_enabled). The rows a batch needs are read with one query per kind; sessions and
// results are read and written as plain rows (one statement each per batch), the few credit and
// drop-out rows through the ORM.
import { EvseIdAssignment } from '../cpo/evse-id-assignment.entity.ts';
import { billPricedSessions } from '../billing/sources/msp-session.source.ts';
import { lockBatchCredit, type BatchCredit } from '../msp/monetary-credit.service.ts';
import { resolveTokens, type ResolvedSubscription, type ResolvedToken } from '../msp/resolve-token.ts';
import { mulDivDecimal, normalize } from '../money/decimal.ts';
import { DomainError } from '../platform/errors.ts';
import { uuidv7 } from '../platform/ids.ts';
import { scopedEm, type Em, type Orm } from '../platform/orm.ts';
import { isValidAt } from '../platform/validity.ts';
import { priceSession, ruleFor, type PricingSession } from '../pricing/price-session.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import { VatRate, type VatKind } from '../pricing/vat-rate.entity.ts';
import { decideReimbursementVat, reimbursementLinksOf, type ReimbursementVatDecision } from '../cpo/customer-reimbursement-vat.ts';
import { normalizeEvseId } from '../cpo/evse-id.ts';
import { Evse } from '../cpo/evse.entity.ts';
import type { OcpiTariff } from '../pricing/ocpi/tariff.ts';
import { cpoCostFromTariff, type TariffSession } from './historical-tariff.ts';
import { recordDropouts, type Dropout } from './record-dropouts.ts';
import { dropoutReasonOfError, type DropoutReason } from './dropout-reasons.ts';
import { billReimbursements } from '../billing/sources/cpo-reimbursement.source.ts';
import { matchRetryPolicyFromEnv, matchSession, nextMatchAttempt, type MatchRetryPolicy } from '../cpo/match-session.ts';
import { ReimbursementFailure, reimburseSession, type ReimbursementDraft } from '../cpo/reimburse-session.ts';
import { reimbursementContext } from '../cpo/reimbursement-context.ts';
import { saveSessionReimbursements, type ReimbursedSession } from '../cpo/save-session-reimbursements.ts';
import { roamingBatch, RoamingFailure, type RoamingBatch } from './roaming-costs.ts';
import { requestProcessingAt } from '../sessions/processing-job.ts';
import { recordEventRows, sessionEventKind } from '../events/event-sql.ts';
import { labelled, totalsOf } from '../sessions/session-subtotals.ts';
import { failedCheck, thresholdsFromEnv } from '../sessions/validity-checks.ts';

export interface ClaimedSession {
  id: string;
  source: 'charge_session' | 'cpo_charge_session';
  session_id: string;
  evco_id: string;
  cpo_id: string | null;
  start_at: Date;
  end_at: Date;
  received_at: Date;
  energy_kwh: string;
  idle_seconds: number;
  time_zone: string;
  country: string;
  evse_id: string | null;
  evse_uid: string | null;
  tariff_code: string | null;
  power_type: string | null;
  max_power_kw: string | null;
  cpo_cost_excl_vat: string | null;
  historical_tariff: OcpiTariff | null;
  charge_periods: TariffSession['chargePeriods'];
  bypass_checks: string[];
  pricing_version: number;
  admin_id: string | null;
  match_attempts: number;
  location_id: string | null;
  connector_id: string | null;
  connector_standard: string | null;
  cpms_reimbursement_excl_vat: string | null;
}

const CLAIM = `select id, source, session_id, evco_id, cpo_id, start_at, end_at, received_at, energy_kwh::text as energy_kwh, idle_seconds,
    time_zone, country, evse_id, evse_uid, payload->>'tariff_code' as tariff_code, lower(payload->>'power_type') as power_type,
    payload->>'max_power_kw' as max_power_kw,
    coalesce(payload->>'total_roaming_amount_excl_vat',
      case source when 'cpo_charge_session' then payload->>'total_sales_amount_excl_vat' else payload->>'total_cost_excl_vat' end) as cpo_cost_excl_vat,
    case source when 'charge_session' then payload->'historical_tariff' end as historical_tariff, payload->'charge_periods' as charge_periods, bypass_checks, pricing_version, admin_id,
    match_attempts, payload->>'location_id' as location_id, payload->>'connector_id' as connector_id,
    payload->>'connector_standard' as connector_standard, payload->>'total_reimbursement_amount_excl_vat' as cpms_reimbursement_excl_vat
  from msp_charge_session where status = 'received' and (retry_at is null or retry_at <= now())
  order by id limit ? for update skip locked`;

const INSERT_RESULTS = `insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id,
    subscription_external_reference, token_evco_id, currency, rate_plan_id, rate_plan_version_id, rule, subtotals,
    total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, roaming_agreement, explanation, created_at)
  select id, session_id, version, admin_id, customer_id, subscription_id, subscription_external_reference, token_evco_id, currency,
    rate_plan_id, rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, roaming_agreement,
    explanation, now()
  from json_populate_recordset(null::msp_pricing_result, ?::json)`;

const UPDATE_SESSIONS = `update msp_charge_session s set status = v.status, admin_id = coalesce(v.admin_id, s.admin_id),
    token_id = v.token_id, subscription_id = v.subscription_id, customer_id = v.customer_id, dropout_case_id = v.dropout_case_id,
    dropout_reason = v.dropout_reason, dropout_message = v.dropout_message, pricing_version = v.pricing_version,
    match_attempts = v.match_attempts, retry_at = v.retry_at, matched_evse_id = v.matched_evse_id, location_id = v.location_id,
    connector_id = v.connector_id, reimbursement_excl_vat = v.reimbursement_excl_vat, updated_at = now()
  from json_populate_recordset(null::msp_charge_session, ?::json) v where s.id = v.id`;

class Dropped extends Error {
  readonly reason: DropoutReason;
  readonly detail: string;
  constructor(reason: DropoutReason, message: string, detail = '') {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

/** A CPO session's matching, retried with back-off (outcome stays `received`) until the last attempt drops it out. */
function matchCpoSession(session: ClaimedSession, evse: Evse | undefined, outcome: SessionOutcome, policy: MatchRetryPolicy, now: Date) {
  const match = matchSession(session, evse);
  if (match.matched) {
    Object.assign(outcome, {
      admin_id: match.evse.admin.id, matched_evse_id: match.evse.id, location_id: match.location.locationId, connector_id: match.connector?.id ?? null,
    });
    return match;
  }
  outcome.match_attempts = session.match_attempts + 1;
  if (evse) outcome.admin_id = evse.admin.id;
  const next = nextMatchAttempt(policy, outcome.match_attempts, now);
  if (next) {
    Object.assign(outcome, { status: 'received', retry_at: next.toISOString() });
    return null;
  }
  throw new Dropped(match.reason, `${match.message} (after ${outcome.match_attempts} attempts)`, match.evseUid);
}

interface Resolved { token: ResolvedToken; subscription: ResolvedSubscription }

/** What a batch writes back for one session. */
export interface SessionOutcome {
  id: string;
  /** received: a CPO session waiting for its next matching attempt. */
  status: 'priced' | 'processed' | 'received' | 'dropout';
  admin_id: string | null;
  token_id: string | null;
  subscription_id: string | null;
  customer_id: string | null;
  dropout_case_id: string | null;
  dropout_reason: string | null;
  dropout_message: string | null;
  pricing_version: number;
  match_attempts: number;
  retry_at: string | null;
  matched_evse_id: string | null;
  location_id: string | null;
  connector_id: string | null;
  reimbursement_excl_vat: string | null;
}

function pricingFacts(session: ClaimedSession): PricingSession {
  return {
    start: session.start_at, end: session.end_at, energyKwh: normalize(session.energy_kwh),
    parkingMinutes: mulDivDecimal(String(session.idle_seconds), '1', '60'), timeZone: session.time_zone, country: session.country,
    cpoPartyId: session.cpo_id ?? undefined, tariffCode: session.tariff_code ?? undefined,
    currentType: session.power_type === null ? undefined : session.power_type === 'dc' ? 'DC' : 'AC',
    powerKw: session.max_power_kw ?? undefined, cpoCostExclVat: session.cpo_cost_excl_vat ?? undefined,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item); else map.set(k, [item]);
  }
  return map;
}

async function loadContext(em: Em, sessions: ClaimedSession[]) {
  const resolutions = await resolveTokens(em, sessions.map((s) => ({ evcoId: s.evco_id, at: s.start_at })));
  const resolutionOf = new Map(sessions.map((s, i) => [s.id, resolutions[i]]));
  const planIds = [...new Set(resolutions.map((r) => r.subscription?.plan.ratePlanId).filter((id): id is string => !!id))];
  const ratePlans = new Map((planIds.length ? await em.find(RatePlan, { id: { $in: planIds } }) : []).map((p) => [p.id, p]));
  const versions = groupBy(planIds.length ? await em.find(RatePlanVersion, { ratePlan: { $in: planIds } }, { orderBy: { validFrom: 'desc' } }) : [],
    (v) => v.ratePlan.id);
  const countries = [...new Set(sessions.map((s) => s.country))];
  const vatRates = groupBy(await em.find(VatRate, { country: { $in: countries } }), (r) => `${r.country}:${r.vatKind}`);
  const evseUids = [...new Set(sessions.map((s) => s.evse_uid).filter((v): v is string => !!v))];
  const evseIds = [...new Set(sessions.map((s) => s.evse_id).filter((v): v is string => !!v).map(normalizeEvseId))];
  const evses = evseUids.length || evseIds.length
    ? await em.find(Evse, { $or: [{ evseUid: { $in: evseUids } }, { evseIdNormalized: { $in: evseIds } }] }, { filters: false, populate: ['location', 'admin'] })
    : [];
  // An EVSE ID names the EVSE that held it at the session's start (it may have moved since).
  const assignments = evseIds.length
    ? await em.find(EvseIdAssignment, { evseIdNormalized: { $in: evseIds } }, { populate: ['evse'], filters: false })
    : [];
  const holderAt = (evseId: string, at: Date) => assignments.find((a) => a.evseIdNormalized === evseId && isValidAt(a, at))?.evse;
  return {
    localEvse: (session: ClaimedSession) => evses.find((e) => session.evse_uid && e.evseUid.toLowerCase() === session.evse_uid.toLowerCase())
      ?? (session.evse_id ? holderAt(normalizeEvseId(session.evse_id), session.start_at) : undefined)
      ?? evses.find((e) => session.evse_id && e.evseIdNormalized === normalizeEvseId(session.evse_id)
        && !assignments.some((a) => a.evseIdNormalized === e.evseIdNormalized)),
    resolutionOf: (session: ClaimedSession) => resolutionOf.get(session.id)!,
    ratePlan: (id: string) => ratePlans.get(id),
    versionAt: (ratePlanId: string, at: Date) => versions.get(ratePlanId)?.find((v) => v.validFrom <= at),
    vatRateAt: (country: string, kind: VatKind, at: Date) => vatRates.get(`${country}:${kind}`)?.find((r) => isValidAt(r, at)),
    reimbursement: await reimbursementContext(em, evses.filter((e) => sessions.some((s) => s.source === 'cpo_charge_session'
      && (s.evse_uid?.toLowerCase() === e.evseUid.toLowerCase() || (s.evse_id && normalizeEvseId(s.evse_id) === e.evseIdNormalized)))),
    (country, kind, at) => vatRates.get(`${country}:${kind}`)?.find((r) => isValidAt(r, at))),
  };
}
type Context = Awaited<ReturnType<typeof loadContext>>;

function resolve(context: Context, session: ClaimedSession): Resolved {
  const { token, subscription } = context.resolutionOf(session);
  if (!token) throw new Dropped('unknown_token', `no token ${session.evco_id}`);
  if (!subscription) {
    throw new Dropped('no_valid_subscription', `token ${token.evcoId} has no valid link to a valid subscription at ${session.start_at.toISOString()}`);
  }
  return { token, subscription };
}

export async function processSessionBatch(orm: Orm, limit: number): Promise<number> {
  const limits = thresholdsFromEnv();
  return scopedEm(orm).transactional(async (em) => {
    const sessions = await em.execute<ClaimedSession[]>(CLAIM, [limit]);
    if (sessions.length === 0) return 0;
    for (const s of sessions) {
      s.start_at = new Date(s.start_at);
      s.end_at = new Date(s.end_at);
      s.received_at = new Date(s.received_at);
    }
    const context = await loadContext(em, sessions);
    const resolved = new Map<string, Resolved>();
    for (const session of sessions) {
      try { resolved.set(session.id, resolve(context, session)); } catch { /* a drop-out, reported below */ }
    }
    const credit = await lockBatchCredit(em, sessions.map((s) => ({ id: s.id, subscription: resolved.get(s.id)?.subscription ?? null })));

    const vatDecisions = new Map<string, ReimbursementVatDecision>();
    const usesOwnerVat = sessions.filter((s) => resolved.get(s.id)?.subscription.plan.useCustomerReimbursementVat);
    const ownerLinks = await reimbursementLinksOf(em, [...new Set(usesOwnerVat.map((s) => context.localEvse(s)).filter((e): e is Evse => !!e))]);
    for (const session of usesOwnerVat) vatDecisions.set(session.id, decideReimbursementVat(context.localEvse(session) ?? null, ownerLinks, session.start_at));

    const outcomes: SessionOutcome[] = [];
    const results: Record<string, unknown>[] = [];
    const dropouts: Dropout[] = [];
    const reimbursed: ReimbursedSession[] = [];
    const roaming = await roamingBatch(em, sessions, context.vatRateAt);
    const retryPolicy = matchRetryPolicyFromEnv();
    const now = new Date();
    for (const session of sessions) {
      const r = resolved.get(session.id);
      const outcome: SessionOutcome = {
        id: session.id, status: 'priced', admin_id: r?.subscription.admin.id ?? null, token_id: r?.token.id ?? null,
        subscription_id: r?.subscription.id ?? null, customer_id: r?.subscription.customer.id ?? null,
        dropout_case_id: null, dropout_reason: null, dropout_message: null, pricing_version: session.pricing_version,
        match_attempts: session.match_attempts, retry_at: null, matched_evse_id: null, location_id: null, connector_id: null, reimbursement_excl_vat: null,
      };
      outcomes.push(outcome);
      // A CPO session's drop-outs are CPO cases, except those of pricing the driver's side.
      let side: 'msp' | 'cpo' = session.source === 'cpo_charge_session' ? 'cpo' : 'msp';
      try {
        const evse = context.localEvse(session);
        const match = side === 'cpo' ? matchCpoSession(session, evse, outcome, retryPolicy, now) : null;
        if (outcome.status === 'received') continue;
        const failed = failedCheck({ startAt: session.start_at, endAt: session.end_at, energyKwh: session.energy_kwh, receivedAt: session.received_at },
          limits, session.bypass_checks);
        if (failed) throw new Dropped(`validity_${failed.check}`, failed.message, failed.check);
        if (evse?.dropoutAllChargesessions) {
          throw new Dropped('evse_dropout_all_chargesessions', `EVSE ${evse.evseUid} is being configured (dropout_all_chargesessions)`, evse.evseUid);
        }
        const drafts = match ? reimburse(context, session, match) : [];
        // A CPO session of a driver who is not one of ours is processed (matched, reimbursed, its
        // roaming amount charged to the driver's MSP when that is a roaming partner) without MSP pricing.
        if (match && !context.resolutionOf(session).token) {
          outcome.status = 'processed';
          costRoaming(() => roaming.calculateCharged(session, pricingFacts(session), match.evse));
        } else {
          side = 'msp';
          const resolvedNow = r ?? resolve(context, session);
          costRoaming(() => roaming.calculate(session, pricingFacts(session), resolvedNow.subscription.admin.id, resolvedNow.subscription.admin.currency));
          results.push(price(em, context, session, resolvedNow, credit, outcome, vatDecisions.get(session.id)));
        }
        if (match) reimbursed.push(reimbursedSession(session, match, drafts));
      } catch (error) {
        const evseUid = side === 'cpo' ? (session.evse_uid ?? session.evse_id) : null;
        if (error instanceof Dropped) dropouts.push({ outcome, reason: error.reason, message: error.message, detail: error.detail, side, evseUid });
        else if (error instanceof DomainError) dropouts.push({ outcome, reason: dropoutReasonOfError(error.code), message: error.message, side, evseUid });
        else throw error;
      }
    }
    await recordDropouts(em, dropouts);
    const statusOf = new Map(outcomes.map((o) => [o.id, o.status]));
    const saved = await saveSessionReimbursements(em, reimbursed.filter((x) => statusOf.get(x.sessionId) !== 'dropout'));
    for (const outcome of outcomes) if (saved.totals.has(outcome.id)) outcome.reimbursement_excl_vat = saved.totals.get(outcome.id)!;
    await em.flush();
    await roaming.save(em, outcomes, results);
    if (results.length) await em.execute(INSERT_RESULTS, [JSON.stringify(results)]);
    await em.execute(UPDATE_SESSIONS, [JSON.stringify(outcomes)]);
    const sourceOf = new Map(sessions.map((s) => [s.id, s.source]));
    await recordEventRows(em, [
      ...outcomes.filter((o) => o.status !== 'received').map((o) => ({
        kind: sessionEventKind(sourceOf.get(o.id)!), resource_id: o.id, modification: 'update' as const,
        admin_id: o.admin_id, changes: { status: ['received', o.status] as [unknown, unknown] },
      })),
      ...results.map((r) => ({ kind: 'msp_charge_session_priced' as const, resource_id: String(r.id), modification: 'create' as const, admin_id: String(r.admin_id) })),
    ]);
    await billPricedSessions(em, results.map((result) => String(result.session_id)));
    await billReimbursements(em, saved.changed);
    const retries = outcomes.filter((o) => o.retry_at).map((o) => o.retry_at!).sort();
    if (retries.length) await requestProcessingAt(em, new Date(retries[0]));
    return sessions.length;
  });
}

function reimburse(context: Context, session: ClaimedSession, match: NonNullable<ReturnType<typeof matchCpoSession>>) {
  try {
    return reimburseSession(context.reimbursement, match.evse, pricingFacts(session), session.cpms_reimbursement_excl_vat);
  } catch (error) {
    if (error instanceof ReimbursementFailure) throw new Dropped(error.reason, error.message, match.evse.evseUid);
    throw error;
  }
}

/** The roaming cost of a session (src/roaming/): a failure is its drop-out. */
function costRoaming(calculate: () => void) {
  try {
    calculate();
  } catch (error) {
    if (error instanceof RoamingFailure) throw new Dropped(error.reason, error.message, error.detail);
    throw error;
  }
}

function reimbursedSession(session: ClaimedSession, match: NonNullable<ReturnType<typeof matchCpoSession>>, drafts: ReimbursementDraft[]): ReimbursedSession {
  const { evse, location, connector } = match;
  return {
    sessionId: session.id, startAt: session.start_at, endAt: session.end_at, tariffCode: session.tariff_code, chargingPeriods: session.charge_periods ?? [],
    drafts,
    evse: {
      evse_uid: evse.evseUid, evse_id: evse.evseId ?? null, location_id: location.locationId, connector_id: connector?.id ?? null,
      address: { street: location.street ?? null, postal_code: location.postalCode ?? null, city: location.city ?? null, country: location.country ?? null },
    },
  };
}

function costFromTariff(session: ClaimedSession, currency: string) {
  let cost: ReturnType<typeof cpoCostFromTariff>;
  try {
    cost = cpoCostFromTariff(session.historical_tariff!, {
      start: session.start_at, end: session.end_at, energyKwh: session.energy_kwh, idleSeconds: session.idle_seconds,
      timeZone: session.time_zone, chargePeriods: session.charge_periods,
    });
  } catch (error) {
    throw new Dropped('historical_tariff_invalid', `the historical_tariff cannot be evaluated: ${(error as Error).message}`);
  }
  if (cost.currency !== currency) {
    throw new Dropped('historical_tariff_currency', `the historical_tariff is in ${cost.currency}, the rate plan in ${currency}`, cost.currency);
  }
  return cost;
}

function price(em: Em, context: Context, session: ClaimedSession, r: Resolved, credit: BatchCredit, outcome: SessionOutcome,
  reimbursementVat: ReimbursementVatDecision | undefined) {
  const { subscription, token } = r;
  const plan = subscription.plan;
  const admin = subscription.admin;
  if (!plan.ratePlanId) throw new Dropped('rate_plan_missing', `subscription plan ${plan.name} has no rate plan`, plan.id);
  const ratePlan = context.ratePlan(plan.ratePlanId);
  if (!ratePlan) throw new Dropped('rate_plan_missing', `rate plan ${plan.ratePlanId} does not exist`, plan.id);
  if (ratePlan.currency !== admin.currency) {
    throw new Dropped('currency_mismatch', `rate plan ${ratePlan.name} is in ${ratePlan.currency}, administration ${admin.id} in ${admin.currency}`, ratePlan.id);
  }
  const version = context.versionAt(ratePlan.id, session.start_at);
  if (!version) throw new Dropped('rate_plan_version_missing', `rate plan ${ratePlan.name} has no version valid at ${session.start_at.toISOString()}`, ratePlan.id);
  const facts = pricingFacts(session);
  const tariffCost = facts.cpoCostExclVat === undefined && session.historical_tariff ? costFromTariff(session, ratePlan.currency) : null;
  if (tariffCost) facts.cpoCostExclVat = tariffCost.exclVat;
  const versionInput = { ...version.definition, id: version.id, validFrom: version.validFrom };
  if (reimbursementVat?.kind === 'dropout') throw new Dropped(reimbursementVat.reason, reimbursementVat.explanation, reimbursementVat.evseUid);
  const kind: VatKind = reimbursementVat?.kind === 'exempt' ? 'exempt' : ruleFor(versionInput, facts).rule?.vat_kind ?? 'standard';
  const vatRates: VatRate[] = [];
  const vatFor = (wanted: VatKind) => {
    if (wanted === 'exempt' || wanted === 'reverse_charge') return { percent: '0.00', kind: wanted, country: session.country };
    const rate = context.vatRateAt(session.country, wanted, session.start_at);
    if (!rate) throw new Dropped('vat_rate_missing', `no ${wanted} VAT rate of ${session.country} is valid at ${session.start_at.toISOString()}`, `${session.country}:${wanted}`);
    vatRates.push(rate);
    return { percent: normalize(rate.percentage), kind: wanted, country: session.country };
  };
  const result = priceSession({ version: versionInput, session: facts, vat: vatFor(kind), vatFor });
  const explanation = [...result.explanation];
  if (tariffCost) explanation.push(tariffCost.explanation);
  for (const rate of new Set(vatRates)) explanation.push(`VAT rate ${rate.id} (${rate.country} ${rate.vatKind}, valid from ${rate.validFrom.toISOString()})`);
  if (reimbursementVat) explanation.push(`customer reimbursement VAT (plan property): ${reimbursementVat.explanation}`);

  const paid = credit.pay(em, session.id, subscription.id, labelled(result.subtotals), plan.creditExcludedComponents ?? [], `charge session ${session.session_id}`);
  if (paid.explanation) explanation.push(paid.explanation);
  const { subtotals, used } = paid;
  const totals = totalsOf(subtotals);
  outcome.pricing_version = session.pricing_version + 1;
  return {
    id: uuidv7(), session_id: session.id, version: outcome.pricing_version, admin_id: admin.id, customer_id: subscription.customer.id,
    subscription_id: subscription.id, subscription_external_reference: subscription.externalReference ?? null, token_evco_id: token.evcoId,
    currency: ratePlan.currency, rate_plan_id: ratePlan.id, rate_plan_version_id: version.id, rule: result.rule, subtotals,
    total_excl_vat: totals.total_excl_vat, total_vat: totals.total_vat, total_incl_vat: totals.total_incl_vat, credit_used: used, annotations: result.annotations, explanation,
  };
}
