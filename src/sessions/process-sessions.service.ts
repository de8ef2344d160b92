// One processing batch: claims received sessions (FOR UPDATE SKIP LOCKED, so several workers
// never take the same session), checks them, resolves token -> link -> subscription -> plan ->
// rate plan version, prices them with the VAT rate valid at the start, applies monetary credits
// and writes a pricing result (next version) or a drop-out, all in one transaction. The rows a
// batch needs are loaded with one query per kind.
import { LockMode } from '@mikro-orm/core';
import { MonetaryCredit } from '../msp/monetary-credit.entity.ts';
import { appendMovement } from '../msp/monetary-credit.service.ts';
import { evcoIdVariants } from '../msp/evco-id.ts';
import { TokenLink } from '../msp/token-link.entity.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { Token } from '../msp/token.entity.ts';
import { addDecimal, compareDecimal, isZero, normalize, subtractDecimal } from '../money/decimal.ts';
import { DomainError } from '../platform/errors.ts';
import { scopedEm, type Em, type Orm } from '../platform/orm.ts';
import { priceSession, ruleFor, type PricingSession } from '../pricing/price-session.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import { VatRate, type VatKind } from '../pricing/vat-rate.entity.ts';
import { ChargeSession } from './charge-session.entity.ts';
import { recordDropouts, type Dropout } from './record-dropouts.ts';
import { PricingResult } from './pricing-result.entity.ts';
import { creditEligibleAmount, creditToUse, labelled, totalsOf, withCredit } from './session-subtotals.ts';
import { failedCheck, thresholdsFromEnv } from './validity-checks.ts';

class Dropped extends Error {
  readonly reason: string;
  readonly detail: string;
  constructor(reason: string, message: string, detail = '') {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

interface Resolved { token: Token; link: TokenLink; subscription: TokenSubscription }

function pricingFacts(session: ChargeSession): PricingSession {
  const payload = session.payload as Record<string, unknown>;
  const powerType = typeof payload.power_type === 'string' ? payload.power_type : undefined;
  return {
    start: session.startAt, end: session.endAt, energyKwh: normalize(session.energyKwh),
    parkingMinutes: normalize(String(session.idleSeconds / 60)), timeZone: session.timeZone, country: session.country,
    cpoPartyId: session.cpoId ?? undefined, tariffCode: typeof payload.tariff_code === 'string' ? payload.tariff_code : undefined,
    currentType: powerType === undefined ? undefined : powerType === 'dc' ? 'DC' : 'AC',
    powerKw: typeof payload.max_power_kw === 'string' ? payload.max_power_kw : undefined,
  };
}

async function loadContext(em: Em, sessions: ChargeSession[]) {
  const variants = [...new Set(sessions.flatMap((s) => evcoIdVariants(s.evcoId)))];
  const tokens = variants.length ? await em.find(Token, { evcoId: { $in: variants } }, { filters: false }) : [];
  const tokenByVariant = new Map(tokens.map((t) => [t.evcoId.toLowerCase(), t]));
  const links = tokens.length
    ? await em.find(TokenLink, { token: { $in: tokens.map((t) => t.id) }, defunct: false }, {
      populate: ['subscription', 'subscription.plan', 'subscription.admin'], filters: false, orderBy: { createdAt: 'asc' },
    })
    : [];
  const planIds = [...new Set(links.map((l) => l.subscription.plan.ratePlanId).filter((id): id is string => !!id))];
  const ratePlans = planIds.length ? await em.find(RatePlan, { id: { $in: planIds } }) : [];
  const versions = planIds.length ? await em.find(RatePlanVersion, { ratePlan: { $in: planIds } }, { orderBy: { validFrom: 'desc' } }) : [];
  const countries = [...new Set(sessions.map((s) => s.country))];
  const vatRates = await em.find(VatRate, { country: { $in: countries } });
  const earlierCredit = await em.find(MonetaryCredit, { sessionId: { $in: sessions.map((s) => s.id) } }, { filters: false });
  return {
    tokenOf: (session: ChargeSession) => evcoIdVariants(session.evcoId).map((v) => tokenByVariant.get(v.toLowerCase())).find(Boolean),
    linksOf: (token: Token) => links.filter((l) => l.token.id === token.id),
    ratePlan: (id: string) => ratePlans.find((p) => p.id === id),
    versionAt: (ratePlanId: string, at: Date) => versions.find((v) => v.ratePlan.id === ratePlanId && v.validFrom <= at),
    vatRateAt: (country: string, kind: VatKind, at: Date) => vatRates.find((r) => r.country === country && r.vatKind === kind
      && r.validFrom <= at && (!r.validUntil || at < r.validUntil)),
    earlierCredit,
  };
}
type Context = Awaited<ReturnType<typeof loadContext>>;

function resolve(context: Context, session: ChargeSession): Resolved {
  const token = context.tokenOf(session);
  if (!token) throw new Dropped('unknown_token', `no token ${session.evcoId}`);
  const current = context.linksOf(token).filter((l) => l.isValidAt(session.startAt));
  const link = current.find((l) => l.subscription.isValidAt(session.startAt));
  if (!link) {
    throw new Dropped('no_valid_subscription', `token ${token.evcoId} has no valid link to a valid subscription at ${session.startAt.toISOString()}`);
  }
  return { token, link, subscription: link.subscription };
}

/** Locks the subscriptions whose credit the batch moves, in id order (no deadlocks between batches). */
async function lockCreditSubscriptions(em: Em, ids: string[]): Promise<Map<string, TokenSubscription>> {
  if (ids.length === 0) return new Map();
  const locked = await em.find(TokenSubscription, { id: { $in: ids } }, {
    lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, orderBy: { id: 'asc' }, filters: false,
  });
  return new Map(locked.map((s) => [s.id, s]));
}

export async function processSessionBatch(orm: Orm, limit: number): Promise<number> {
  const limits = thresholdsFromEnv();
  return scopedEm(orm).transactional(async (em) => {
    const sessions = await em.find(ChargeSession, { status: 'received' }, {
      orderBy: { id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, filters: false,
    });
    if (sessions.length === 0) return 0;
    const context = await loadContext(em, sessions);

    // Credit already used by sessions being repriced goes back first.
    const released = new Map<string, Map<string, string>>();
    for (const row of context.earlierCredit) {
      const perSub = released.get(row.sessionId!) ?? new Map<string, string>();
      perSub.set(row.subscription.id, addDecimal(perSub.get(row.subscription.id) ?? '0', row.amount));
      released.set(row.sessionId!, perSub);
    }
    const resolved = new Map<string, Resolved>();
    for (const session of sessions) {
      try { resolved.set(session.id, resolve(context, session)); } catch { /* reported below */ }
    }
    const creditIds = new Set<string>([...released.values()].flatMap((m) => [...m.keys()]));
    for (const r of resolved.values()) if (compareDecimal(r.subscription.monetaryCreditBalance, '0') > 0) creditIds.add(r.subscription.id);
    const locked = await lockCreditSubscriptions(em, [...creditIds].sort());
    for (const [sessionId, perSub] of released) {
      for (const [subscriptionId, net] of perSub) {
        if (compareDecimal(net, '0') >= 0) continue;
        appendMovement(em, locked.get(subscriptionId)!, 'correction', subtractDecimal('0', net), { sessionId, description: 'released for repricing' });
      }
    }

    const dropouts: Dropout[] = [];
    for (const session of sessions) {
      try {
        const failed = failedCheck(session, limits, session.bypassChecks);
        if (failed) throw new Dropped(`validity_${failed.check}`, failed.message, failed.check);
        const r = resolved.get(session.id) ?? resolve(context, session);
        price(em, context, session, r, locked);
      } catch (error) {
        if (error instanceof Dropped) dropouts.push({ session, reason: error.reason, message: error.message, detail: error.detail });
        else if (error instanceof DomainError) dropouts.push({ session, reason: error.code, message: error.message });
        else throw error;
      }
    }
    await recordDropouts(em, dropouts);
    await em.flush();
    return sessions.length;
  });
}

function price(em: Em, context: Context, session: ChargeSession, r: Resolved, locked: Map<string, TokenSubscription>): void {
  const { subscription, token } = r;
  const plan = subscription.plan;
  const admin = subscription.admin;
  session.admin = admin;
  session.tokenId = token.id;
  session.subscriptionId = subscription.id;
  session.customerId = subscription.customer.id;
  if (!plan.ratePlanId) throw new Dropped('rate_plan_missing', `subscription plan ${plan.name} has no rate plan`, plan.id);
  const ratePlan = context.ratePlan(plan.ratePlanId);
  if (!ratePlan) throw new Dropped('rate_plan_missing', `rate plan ${plan.ratePlanId} does not exist`, plan.id);
  if (ratePlan.currency !== admin.currency) {
    throw new Dropped('currency_mismatch', `rate plan ${ratePlan.name} is in ${ratePlan.currency}, administration ${admin.id} in ${admin.currency}`, ratePlan.id);
  }
  const version = context.versionAt(ratePlan.id, session.startAt);
  if (!version) throw new Dropped('rate_plan_version_missing', `rate plan ${ratePlan.name} has no version valid at ${session.startAt.toISOString()}`, ratePlan.id);
  const facts = pricingFacts(session);
  const versionInput = { ...version.definition, id: version.id, validFrom: version.validFrom };
  const kind: VatKind = ruleFor(versionInput, facts).rule?.vat_kind ?? 'standard';
  const zero = kind === 'exempt' || kind === 'reverse_charge';
  const vatRate = zero ? null : context.vatRateAt(session.country, kind, session.startAt);
  if (!zero && !vatRate) {
    throw new Dropped('vat_rate_missing', `no ${kind} VAT rate of ${session.country} is valid at ${session.startAt.toISOString()}`, `${session.country}:${kind}`);
  }
  const result = priceSession({
    version: versionInput, session: facts,
    vat: { percent: vatRate ? normalize(vatRate.percentage) : '0.00', kind, country: session.country },
  });
  const explanation = [...result.explanation];
  if (plan.useCustomerReimbursementVat) explanation.push('the plan uses customer reimbursement VAT: no local EVSE matched the session, so normal VAT determination applied');

  let subtotals = labelled(result.subtotals);
  let used = '0.00';
  const creditHolder = locked.get(subscription.id);
  if (creditHolder && compareDecimal(creditHolder.monetaryCreditBalance, '0') > 0) {
    const excluded = plan.creditExcludedComponents ?? [];
    used = creditToUse(creditHolder.monetaryCreditBalance, creditEligibleAmount(subtotals, excluded));
    if (!isZero(used)) {
      appendMovement(em, creditHolder, 'consumption', subtractDecimal('0', used), { sessionId: session.id, description: `charge session ${session.sessionId}` });
      subtotals = withCredit(subtotals, used);
      explanation.push(`monetary credit: ${used} of the balance paid the session${excluded.length ? ` (not for ${excluded.join(', ')})` : ''}; `
        + `${normalize(creditHolder.monetaryCreditBalance)} is left`);
    }
  }
  const totals = totalsOf(subtotals);
  session.pricingVersion += 1;
  session.status = 'priced';
  session.dropoutCase = null;
  session.dropoutReason = null;
  session.dropoutMessage = null;
  em.create(PricingResult, {
    session, version: session.pricingVersion, admin, customerId: subscription.customer.id, subscriptionId: subscription.id,
    subscriptionExternalReference: subscription.externalReference ?? null, tokenEvcoId: token.evcoId, currency: ratePlan.currency,
    ratePlanId: ratePlan.id, ratePlanVersionId: version.id, rule: result.rule, subtotals, creditUsed: used,
    totalExclVat: totals.total_excl_vat, totalVat: totals.total_vat, totalInclVat: totals.total_incl_vat, explanation,
  } as never);
}
