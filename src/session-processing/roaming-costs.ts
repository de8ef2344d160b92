// The roaming step of a processing batch (process-sessions.service.ts), which it loads once for the batch. Two sides:
// - We are the CPO: a session of POST /cpo-charge-session at our EVSE whose driver is not one of
//   ours and whose contract id (evco_id) names the MSP party id of a roaming partner. What we
//   charge that partner is billed to it (src/roaming/roaming.source.ts) as revenue of the
//   EVSE's administration. With `roaming_enabled` the cost is calculated: the partner's live
//   agreement where we are the CPO, valid at the session start; its rate plan, else the amount the
//   CPMS reported (`total_roaming_amount_excl_vat`). Without it the reported amount is billed as
//   reported (nothing when none is reported).
// - We are the MSP (only with `roaming_enabled`): a session of POST /charge-session whose `cpo_id`
//   is a CPO party id of a roaming partner. Its agreement is the partner's live agreement where we
//   are the MSP, valid at the start, on the session's `roaming_connection_id` when it names one
//   (a provider-facilitated connection needs none). The cost is what the partner will invoice us:
//   it is calculated, stored and compared with the reported amount (an annotation on the pricing
//   result), not billed by us.
// The cost comes from the rule src/roaming/roaming-cost.ts. A failure is a drop-out (`roaming_agreement_missing`,
// `multiple_roaming_agreements`, `roaming_connection_unknown`, `roaming_cost_failed`,
// `vat_rate_missing`). The batch writes the costs on the sessions (one statement) and bills the
// charged ones, in the batch's transaction; a charged session that drops out loses its charge.
import type { Evse } from '../cpo/evse.entity.ts';
import { billRoamingCosts } from '../roaming/roaming.source.ts';
import { versionAt } from '../contracts/versions.ts';
import { normalize } from '../money/decimal.ts';
import { tryParseEvcoId } from '../msp/evco-id.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { InstanceSettings } from '../parties/instance-settings.entity.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import type { PricingSession } from '../pricing/price-session.ts';
import { ROAMING_AMOUNT_DIFFERENCE } from '../pricing/script/run-rule-script.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import type { VatKind, VatRate } from '../pricing/vat-rate.entity.ts';
import type { OcpiTariff } from '../pricing/ocpi/tariff.ts';
import { cpoCostFromTariff, type TariffSession } from './historical-tariff.ts';
import { OcpiTariff as PublishedTariff } from '../ocpi/ocpi-tariff.entity.ts';
import { utc } from '../ocpi/cdr-to-session.ts';
import { normalizePartyId } from '../platform/party-id.ts';
import { RoamingAgreement, type AgreementRole } from '../roaming/roaming-agreement.entity.ts';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { amountDifference, roamingCost, RoamingFailure, type RoamingCost } from '../roaming/roaming-cost.ts';
import { Dropped } from './dropout-reasons.ts';

/** What the roaming step reads of a claimed session. */
export interface RoamingSessionFacts {
  id: string;
  source: string;
  evco_id: string;
  cpo_id: string | null;
  start_at: Date;
  end_at: Date;
  energy_kwh: string;
  idle_seconds: number;
  time_zone: string;
  country: string;
  cpo_cost_excl_vat: string | null;
  /** Whether an earlier processing stored a roaming cost on it. */
  had_roaming?: boolean;
  tariff_code: string | null;
  historical_tariff: OcpiTariff | null;
  charge_periods: TariffSession['chargePeriods'];
}

interface Reported {
  id: string;
  connection_id: string | null;
  flat: string | null;
  energy: string | null;
  time: string | null;
  reservation: string | null;
}

/** The roaming split of /charge-session bodies (a CPO session reports only its total). */
const REPORTED = `select id, case source when 'charge_session' then coalesce(payload->>'roaming_connection_id', payload->>'roaming_connection') end as connection_id,
    case source when 'charge_session' then payload->>'total_roaming_flat_amount_excl_vat' end as flat,
    case source when 'charge_session' then payload->>'total_roaming_energy_amount_excl_vat' end as energy,
    case source when 'charge_session' then payload->>'total_roaming_time_amount_excl_vat' end as time,
    case source when 'charge_session' then payload->>'total_roaming_reservation_amount_excl_vat' end as reservation
  from msp_charge_session where id = any(?::uuid[])`;

const SAVE = `update msp_charge_session s set roaming_partner_id = v.roaming_partner_id, roaming_connection_id = v.roaming_connection_id,
    roaming_agreement_id = v.roaming_agreement_id, roaming_admin_id = v.roaming_admin_id, roaming_cost_source = v.roaming_cost_source,
    roaming_currency = v.roaming_currency, roaming_cost_excl_vat = v.roaming_cost_excl_vat, roaming_cost_vat = v.roaming_cost_vat,
    roaming_cost_incl_vat = v.roaming_cost_incl_vat, roaming_vat_kind = v.roaming_vat_kind, roaming_vat_percent = v.roaming_vat_percent,
    roaming_flat_excl_vat = v.roaming_flat_excl_vat, roaming_energy_excl_vat = v.roaming_energy_excl_vat,
    roaming_time_excl_vat = v.roaming_time_excl_vat, roaming_reservation_excl_vat = v.roaming_reservation_excl_vat
  from json_populate_recordset(null::msp_charge_session, ?::json) v where s.id = v.id`;

/** An OCPI tariff's own validity (start_date_time inclusive, end_date_time exclusive; absent: open; UTC without an offset). */
function publishedValidAt(tariff: PublishedTariff, at: Date): boolean {
  const { start_date_time: from, end_date_time: until } = tariff.body as { start_date_time?: string; end_date_time?: string };
  return (!from || Date.parse(utc(from)) <= at.getTime()) && (!until || at.getTime() < Date.parse(utc(until)));
}

/** The MSP party id of a contract id (`NL-TNM-C12345678-X` → `NLTNM`); null when it is not an eMI3 contract id. */
export function mspPartyIdOf(evcoId: string): string | null {
  const parsed = tryParseEvcoId(evcoId);
  return parsed ? normalizePartyId(`${parsed.countryCode}${parsed.providerId}`) : null;
}

interface Calculated {
  partner: RoamingPartner;
  connection: RoamingConnection | null;
  agreement: RoamingAgreement | null;
  cost: RoamingCost;
  /** The administration the cost belongs to: the EVSE's (we charge it) or the MSP's (it is charged to us). */
  adminId: string;
  reportedExclVat: string | null;
}

export class RoamingBatch {
  readonly enabled: boolean;
  private readonly calculated = new Map<string, Calculated>();
  private readonly byCpoId = new Map<string, RoamingPartner>();
  private readonly byMspId = new Map<string, RoamingPartner>();
  private readonly reported: Map<string, Reported>;
  private readonly connections: Map<string, RoamingConnection>;
  private readonly agreements: RoamingAgreement[];
  private readonly ratePlans: Map<string, RatePlan>;
  private readonly versions: RatePlanVersion[];
  private readonly published: PublishedTariff[];
  private readonly vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined;

  /** Sessions of the batch an earlier processing stored a roaming cost on. */
  private readonly hadRoaming: Set<string>;
  /** Those of them we charged a partner for (CPO sessions): billed, so withdrawn when they drop out. */
  private readonly hadCharge: Set<string>;

  constructor(data: {
    hadRoaming: string[]; hadCharge: string[];
    enabled: boolean; partners: RoamingPartner[]; reported: Reported[]; connections: RoamingConnection[]; agreements: RoamingAgreement[];
    ratePlans: RatePlan[]; versions: RatePlanVersion[]; published: PublishedTariff[];
    vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined;
  }) {
    this.enabled = data.enabled;
    this.hadRoaming = new Set(data.hadRoaming);
    this.hadCharge = new Set(data.hadCharge);
    for (const partner of data.partners) {
      for (const id of partner.cpoIds) this.byCpoId.set(id, partner);
      for (const id of partner.mspIds) this.byMspId.set(id, partner);
    }
    this.reported = new Map(data.reported.map((r) => [r.id, r]));
    this.connections = new Map(data.connections.map((c) => [c.id, c]));
    this.agreements = data.agreements;
    this.ratePlans = new Map(data.ratePlans.map((p) => [p.id, p]));
    this.versions = data.versions;
    this.published = data.published;
    this.vatRateAt = data.vatRateAt;
  }

  /** Whether the batch has roaming work at all (else save() does nothing). */
  get active(): boolean {
    return this.byCpoId.size > 0 || this.byMspId.size > 0;
  }

  /** The partner charging a session of POST /charge-session (we are the MSP); null: not roaming, or calculation is off. */
  private chargingPartnerOf(session: RoamingSessionFacts): RoamingPartner | null {
    if (!this.enabled || session.source !== 'charge_session' || !session.cpo_id) return null;
    const partyId = normalizePartyId(session.cpo_id);
    return (partyId && this.byCpoId.get(partyId)) || null;
  }

  /** The partner whose driver charged at our EVSE (we are the CPO); null when the contract id names no partner. */
  private chargedPartnerOf(session: RoamingSessionFacts): RoamingPartner | null {
    if (session.source !== 'cpo_charge_session') return null;
    const partyId = mspPartyIdOf(session.evco_id);
    return (partyId && this.byMspId.get(partyId)) || null;
  }

  /** The one live agreement with the partner in our role valid at the start (on the connection when one is named). */
  private agreementOf(partner: RoamingPartner, role: AgreementRole, session: RoamingSessionFacts, connection: RoamingConnection | null): RoamingAgreement {
    const candidates = this.agreements.filter((a) => a.partner.id === partner.id && a.role === role && a.isValidAt(session.start_at)
      && (!connection || a.connection.id === connection.id));
    const whose = role === 'msp' ? `CPO ${session.cpo_id}` : `MSP of ${session.evco_id}`;
    if (candidates.length === 0) {
      throw new RoamingFailure('roaming_agreement_missing', `no roaming agreement with ${partner.name} (${whose}, we as ${role.toUpperCase()})`
        + `${connection ? ` on connection ${connection.name}` : ''} is valid at ${session.start_at.toISOString()}`, connection?.id ?? partner.id);
    }
    if (candidates.length > 1) {
      throw new RoamingFailure('multiple_roaming_agreements', `${candidates.length} roaming agreements with ${partner.name} are valid at `
        + `${session.start_at.toISOString()} (${candidates.map((a) => a.id).join(', ')})${role === 'msp' ? '; name the roaming_connection_id' : ''}`, partner.id);
    }
    return candidates[0];
  }

  /**
   * The OCPI tariff the CPO published on the connection (OCPI Tariffs module) that a session of
   * POST /charge-session names by `tariff_code`, when it carries no historical_tariff: the one of
   * the session's CPO party id valid at the start.
   */
  private publishedTariffOf(session: RoamingSessionFacts, connection: RoamingConnection | null): PublishedTariff | undefined {
    if (session.source !== 'charge_session' || !session.tariff_code || !connection || !session.cpo_id) return undefined;
    const party = normalizePartyId(session.cpo_id);
    return this.published.find((t) => t.roamingConnectionId === connection.id && t.tariffId === session.tariff_code
      && `${t.countryCode}${t.partyId}`.toUpperCase() === party && publishedValidAt(t, session.start_at));
  }

  private cost(session: RoamingSessionFacts, facts: PricingSession, agreement: RoamingAgreement | null, currency: string,
    connection: RoamingConnection | null = null): RoamingCost {
    const ratePlanId = agreement?.ratePlanId ?? null;
    const published = session.historical_tariff ? undefined : this.publishedTariffOf(session, connection);
    const tariff = session.historical_tariff ?? (published?.body as OcpiTariff | undefined);
    return roamingCost({
      session: facts, currency, agreement,
      tariff: tariff ? {
        source: published ? 'ocpi_tariff' : 'historical_tariff', name: published?.tariffId,
        evaluate: () => cpoCostFromTariff(tariff, {
          start: session.start_at, end: session.end_at, energyKwh: session.energy_kwh, idleSeconds: session.idle_seconds,
          timeZone: session.time_zone, chargePeriods: session.charge_periods,
        }),
      } : null,
      ratePlan: ratePlanId ? this.ratePlans.get(ratePlanId) : undefined,
      version: ratePlanId ? versionAt(this.versions.filter((v) => v.ratePlan.id === ratePlanId), session.start_at) : undefined,
      reported: { exclVat: session.cpo_cost_excl_vat, split: this.reported.get(session.id) ?? {} },
      vatRate: (kind) => this.vatRateAt(session.country, kind, session.start_at),
    });
  }

  /**
   * We are the MSP: calculates what the partner charges us for a session of POST /charge-session
   * (kept for save()); a RoamingFailure when it cannot be. `adminId`, `currency`: the session's administration.
   */
  calculate(session: RoamingSessionFacts, facts: PricingSession, adminId: string, currency: string): void {
    this.calculated.delete(session.id);
    const partner = this.chargingPartnerOf(session);
    if (!partner) return;
    const named = this.reported.get(session.id)?.connection_id ?? null;
    let connection: RoamingConnection | null = null;
    if (named !== null) {
      connection = this.connections.get(named.toLowerCase()) ?? null;
      if (!connection) throw new RoamingFailure('roaming_connection_unknown', `roaming connection ${named} does not exist`, named);
    }
    let agreement: RoamingAgreement | null = null;
    if (connection?.kind !== 'provider_facilitated') {
      agreement = this.agreementOf(partner, 'msp', session, connection);
      connection ??= agreement.connection;
    }
    this.calculated.set(session.id, {
      partner, connection, agreement, cost: this.cost(session, facts, agreement, currency, connection), adminId,
      reportedExclVat: session.cpo_cost_excl_vat === null ? null : normalize(session.cpo_cost_excl_vat),
    });
  }

  /**
   * We are the CPO: what we charge the partner whose driver charged at our `evse` (a session of
   * POST /cpo-charge-session), kept for save(); a RoamingFailure when it cannot be calculated.
   */
  calculateCharged(session: RoamingSessionFacts, facts: PricingSession, evse: Evse): void {
    this.calculated.delete(session.id);
    const partner = this.chargedPartnerOf(session);
    if (!partner) return;
    // Without roaming calculation the CPMS's amount is billed as reported; nothing when it reports none.
    if (!this.enabled && session.cpo_cost_excl_vat === null) return;
    const agreement = this.enabled ? this.agreementOf(partner, 'cpo', session, null) : null;
    this.calculated.set(session.id, {
      partner, connection: agreement?.connection ?? null, agreement, cost: this.cost(session, facts, agreement, evse.admin.currency),
      adminId: evse.admin.id, reportedExclVat: session.cpo_cost_excl_vat === null ? null : normalize(session.cpo_cost_excl_vat),
    });
  }

  /**
   * After the batch: the agreement and the difference annotation go on the pricing results, the
   * cost on the priced and processed sessions (null for those that are not roaming), then billing.
   */
  async save(em: Em, outcomes: { id: string; status: string }[], results: Record<string, unknown>[]): Promise<void> {
    // A session we charged a partner for that drops out (on either side) is no longer processed: it
    // loses the charge and its item is withdrawn (reversed once its box closed), as a CPO drop-out
    // loses its reimbursement; a discard of its case then changes nothing more.
    const dropped = outcomes.filter((o) => o.status === 'dropout' && this.hadCharge.has(o.id)).map((o) => o.id);
    if (!this.active) {
      // No roaming in the batch: a session that had a roaming cost (its partner's ids changed, roaming
      // was switched off) loses it, and its item is withdrawn, as in a batch with roaming work.
      const lost = [...outcomes.filter((o) => (o.status === 'priced' || o.status === 'processed') && this.hadRoaming.has(o.id)).map((o) => o.id), ...dropped];
      if (lost.length) {
        await em.execute(SAVE, [JSON.stringify(lost.map((id) => ({ id })))]);
        await billRoamingCosts(em, lost);
      }
      return;
    }
    for (const result of results) {
      const c = this.calculated.get(String(result.session_id));
      if (!c) continue;
      const explanation = result.explanation as string[];
      explanation.push(...c.cost.explanation);
      if (c.agreement) {
        result.roaming_agreement = {
          id: c.agreement.id, external_reference: c.agreement.externalReference ?? null, connection_id: c.agreement.connection.id,
          partner_id: c.partner.id, role: c.agreement.role,
        };
      }
      const difference = c.cost.source === 'reported' ? null : amountDifference(c.reportedExclVat, c.cost.exclVat);
      if (difference) result.annotations = { ...(result.annotations as Record<string, string>), [ROAMING_AMOUNT_DIFFERENCE]: difference };
    }
    const done = outcomes.filter((o) => o.status === 'priced' || o.status === 'processed').map((o) => o.id);
    if (done.length === 0 && dropped.length === 0) return;
    const rows = done.map((id) => {
      const c = this.calculated.get(id);
      return c ? {
        id, roaming_partner_id: c.partner.id, roaming_connection_id: c.connection?.id ?? null, roaming_agreement_id: c.agreement?.id ?? null,
        roaming_admin_id: c.adminId, roaming_cost_source: c.cost.source, roaming_currency: c.cost.currency,
        roaming_cost_excl_vat: c.cost.exclVat, roaming_cost_vat: c.cost.vat, roaming_cost_incl_vat: c.cost.inclVat,
        roaming_vat_kind: c.cost.vatKind, roaming_vat_percent: c.cost.vatPercent, roaming_flat_excl_vat: c.cost.split.flat,
        roaming_energy_excl_vat: c.cost.split.energy, roaming_time_excl_vat: c.cost.split.time, roaming_reservation_excl_vat: c.cost.split.reservation,
      } : { id };
    });
    await em.execute(SAVE, [JSON.stringify([...rows, ...dropped.map((id) => ({ id }))])]);
    await billRoamingCosts(em, [...done, ...dropped]);
  }
}

/** Loads what the batch's roaming sessions need, with one query per kind (none when no session is roaming). */
export async function roamingBatch(em: Em, sessions: RoamingSessionFacts[],
  vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined): Promise<RoamingBatch> {
  const settings = await em.findOne(InstanceSettings, { id: 1 }, { filters: false });
  const enabled = settings?.roamingEnabled ?? false;
  const hadRoaming = sessions.filter((s) => s.had_roaming);
  const empty = { hadRoaming: hadRoaming.map((s) => s.id), hadCharge: hadRoaming.filter((s) => s.source === 'cpo_charge_session').map((s) => s.id), enabled, partners: [], reported: [], connections: [], agreements: [], ratePlans: [], versions: [], published: [], vatRateAt };
  const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => !!id))];
  const cpoIds = enabled ? distinct(sessions.filter((s) => s.source === 'charge_session' && s.cpo_id).map((s) => normalizePartyId(s.cpo_id!))) : [];
  const mspIds = distinct(sessions.filter((s) => s.source === 'cpo_charge_session').map((s) => mspPartyIdOf(s.evco_id)));
  const wanted = [...(cpoIds.length ? [{ cpoIds: { $overlap: cpoIds } }] : []), ...(mspIds.length ? [{ mspIds: { $overlap: mspIds } }] : [])];
  const partners = wanted.length ? await em.find(RoamingPartner, { $or: wanted }, { filters: false }) : [];
  if (partners.length === 0) return new RoamingBatch(empty);
  const reported = await em.execute<Reported[]>(REPORTED, [`{${sessions.map((s) => s.id).join(',')}}`]);
  const connectionIds = distinct(reported.map((r) => r.connection_id?.toLowerCase() ?? null)).filter(isUuid);
  const connections = connectionIds.length ? await em.find(RoamingConnection, { id: { $in: connectionIds } }, { filters: false }) : [];
  const agreements = enabled
    ? await em.find(RoamingAgreement, { partner: { $in: partners.map((p) => p.id) }, defunct: false }, { populate: ['connection'], filters: false })
    : [];
  const ratePlanIds = distinct(agreements.map((a) => a.ratePlanId ?? null));
  const ratePlans = ratePlanIds.length ? await em.find(RatePlan, { id: { $in: ratePlanIds } }, { filters: false }) : [];
  const versions = ratePlanIds.length
    ? await em.find(RatePlanVersion, { ratePlan: { $in: ratePlanIds } }, { orderBy: { validFrom: 'desc' }, filters: false })
    : [];
  const tariffCodes = enabled ? distinct(sessions.filter((s) => s.source === 'charge_session' && !s.historical_tariff).map((s) => s.tariff_code)) : [];
  const published = tariffCodes.length ? await em.find(PublishedTariff, { tariffId: { $in: tariffCodes } }, { filters: false }) : [];
  return new RoamingBatch({ ...empty, partners, reported, connections, agreements, ratePlans, versions, published });
}

/** A roaming cost of the batch (`calculate`, `calculateCharged`): a RoamingFailure is the session's drop-out. */
export function costRoaming(calculate: () => void): void {
  try {
    calculate();
  } catch (error) {
    if (error instanceof RoamingFailure) throw new Dropped(error.reason, error.message, error.detail);
    throw error;
  }
}
