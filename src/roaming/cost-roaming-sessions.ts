// The roaming step of a processing batch (src/sessions/process-sessions.service.ts), when the
// instance has `roaming_enabled`: a session of POST /charge-session whose `cpo_id` is a party id
// of a roaming partner is a roaming session. Its agreement is the partner's live agreement where
// we are the MSP (the partner the CPO), valid at the session start, on the session's
// `roaming_connection_id` when it names one; a provider-facilitated connection needs none. The
// cost comes from roaming-cost.ts. A failure is a drop-out (`roaming_agreement_missing`,
// `multiple_roaming_agreements`, `roaming_connection_unknown`, `roaming_cost_failed`,
// `vat_rate_missing`). The batch writes the cost on the session (one statement), puts the agreement
// and the reported/calculated difference on the pricing result, and bills the cost
// (src/billing/sources/roaming.source.ts) in the batch's transaction.
import type { Evse } from '../cpo/evse.entity.ts';
import { billRoamingCosts } from '../billing/sources/roaming.source.ts';
import { normalize } from '../money/decimal.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { InstanceSettings } from '../parties/instance-settings.entity.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import type { PricingSession } from '../pricing/price-session.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import type { VatKind, VatRate } from '../pricing/vat-rate.entity.ts';
import type { OcpiTariff } from '../pricing/ocpi/tariff.ts';
import { cpoCostFromTariff, type TariffSession } from '../sessions/historical-tariff.ts';
import { normalizePartyId } from './party-id.ts';
import { RoamingAgreement } from './roaming-agreement.entity.ts';
import { RoamingConnection } from './roaming-connection.entity.ts';
import { amountDifference, roamingCost, RoamingFailure, type RoamingCost } from './roaming-cost.ts';

/** What the roaming step reads of a claimed session. */
export interface RoamingSessionFacts {
  id: string;
  source: string;
  cpo_id: string | null;
  start_at: Date;
  end_at: Date;
  energy_kwh: string;
  idle_seconds: number;
  time_zone: string;
  country: string;
  cpo_cost_excl_vat: string | null;
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

const REPORTED = `select id, coalesce(payload->>'roaming_connection_id', payload->>'roaming_connection') as connection_id,
    payload->>'total_roaming_flat_amount_excl_vat' as flat, payload->>'total_roaming_energy_amount_excl_vat' as energy,
    payload->>'total_roaming_time_amount_excl_vat' as time, payload->>'total_roaming_reservation_amount_excl_vat' as reservation
  from msp_charge_session where id = any(?::uuid[])`;

const SAVE = `update msp_charge_session s set roaming_partner_id = v.roaming_partner_id, roaming_connection_id = v.roaming_connection_id,
    roaming_agreement_id = v.roaming_agreement_id, roaming_admin_id = v.roaming_admin_id, roaming_cost_source = v.roaming_cost_source,
    roaming_currency = v.roaming_currency, roaming_cost_excl_vat = v.roaming_cost_excl_vat, roaming_cost_vat = v.roaming_cost_vat,
    roaming_cost_incl_vat = v.roaming_cost_incl_vat, roaming_vat_kind = v.roaming_vat_kind, roaming_vat_percent = v.roaming_vat_percent,
    roaming_flat_excl_vat = v.roaming_flat_excl_vat, roaming_energy_excl_vat = v.roaming_energy_excl_vat,
    roaming_time_excl_vat = v.roaming_time_excl_vat, roaming_reservation_excl_vat = v.roaming_reservation_excl_vat
  from json_populate_recordset(null::msp_charge_session, ?::json) v where s.id = v.id`;

interface Calculated {
  partner: RoamingPartner;
  connection: RoamingConnection | null;
  agreement: RoamingAgreement | null;
  cost: RoamingCost;
  adminId: string | null;
  reportedExclVat: string | null;
}

export class RoamingBatch {
  readonly enabled: boolean;
  private readonly calculated = new Map<string, Calculated>();
  private readonly partnerOf: (partyId: string) => RoamingPartner | undefined;
  private readonly reported: Map<string, Reported>;
  private readonly connections: Map<string, RoamingConnection>;
  private readonly agreements: RoamingAgreement[];
  private readonly ratePlans: Map<string, RatePlan>;
  private readonly versions: RatePlanVersion[];
  private readonly vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined;

  constructor(data: {
    enabled: boolean; partners: RoamingPartner[]; reported: Reported[]; connections: RoamingConnection[]; agreements: RoamingAgreement[];
    ratePlans: RatePlan[]; versions: RatePlanVersion[]; vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined;
  }) {
    this.enabled = data.enabled;
    const byPartyId = new Map<string, RoamingPartner>();
    for (const partner of data.partners) for (const id of partner.cpoIds) byPartyId.set(id, partner);
    this.partnerOf = (partyId) => byPartyId.get(partyId);
    this.reported = new Map(data.reported.map((r) => [r.id, r]));
    this.connections = new Map(data.connections.map((c) => [c.id, c]));
    this.agreements = data.agreements;
    this.ratePlans = new Map(data.ratePlans.map((p) => [p.id, p]));
    this.versions = data.versions;
    this.vatRateAt = data.vatRateAt;
  }

  /** The roaming partner of a session (null: not a roaming session, or roaming calculation is off). */
  partnerOfSession(session: RoamingSessionFacts): RoamingPartner | null {
    if (!this.enabled || session.source !== 'charge_session' || !session.cpo_id) return null;
    const partyId = normalizePartyId(session.cpo_id);
    return (partyId && this.partnerOf(partyId)) || null;
  }

  /**
   * Calculates a roaming session's cost (kept for save()); a RoamingFailure when it cannot be.
   * `evse`: the local EVSE the session names; `adminId`, `currency`: the session's administration.
   */
  calculate(session: RoamingSessionFacts, facts: PricingSession, evse: Evse | undefined, adminId: string, currency: string): void {
    this.calculated.delete(session.id);
    const partner = this.partnerOfSession(session);
    if (!partner) return;
    const reported = this.reported.get(session.id);
    const named = reported?.connection_id ?? null;
    let connection: RoamingConnection | null = null;
    if (named !== null) {
      connection = this.connections.get(named.toLowerCase()) ?? null;
      if (!connection) throw new RoamingFailure('roaming_connection_unknown', `roaming connection ${named} does not exist`, named);
    }
    let agreement: RoamingAgreement | null = null;
    if (connection?.kind !== 'provider_facilitated') {
      const candidates = this.agreements.filter((a) => a.partner.id === partner.id && a.role === 'msp' && a.isValidAt(session.start_at)
        && (!connection || a.connection.id === connection.id));
      if (candidates.length === 0) {
        throw new RoamingFailure('roaming_agreement_missing', `no roaming agreement with ${partner.name} (CPO ${session.cpo_id})`
          + `${connection ? ` on connection ${connection.name}` : ''} is valid at ${session.start_at.toISOString()}`, connection?.id ?? partner.id);
      }
      if (candidates.length > 1) {
        throw new RoamingFailure('multiple_roaming_agreements', `${candidates.length} roaming agreements with ${partner.name} are valid at `
          + `${session.start_at.toISOString()} (${candidates.map((a) => a.id).join(', ')}); name the roaming_connection_id`, partner.id);
      }
      agreement = candidates[0];
      connection ??= agreement.connection;
    }
    const ratePlanId = agreement?.ratePlanId ?? null;
    const cost = roamingCost({
      session: facts, currency, agreement,
      tariff: session.historical_tariff ? () => cpoCostFromTariff(session.historical_tariff!, {
        start: session.start_at, end: session.end_at, energyKwh: session.energy_kwh, idleSeconds: session.idle_seconds,
        timeZone: session.time_zone, chargePeriods: session.charge_periods,
      }) : null,
      ratePlan: ratePlanId ? this.ratePlans.get(ratePlanId) : undefined,
      version: ratePlanId ? this.versions.find((v) => v.ratePlan.id === ratePlanId && v.validFrom <= session.start_at) : undefined,
      reported: { exclVat: session.cpo_cost_excl_vat, split: reported ?? {} },
      vatRate: (kind) => this.vatRateAt(session.country, kind, session.start_at),
    });
    this.calculated.set(session.id, {
      partner, connection, agreement, cost, adminId: evse?.admin.id ?? adminId,
      reportedExclVat: session.cpo_cost_excl_vat === null ? null : normalize(session.cpo_cost_excl_vat),
    });
  }

  /**
   * After the batch: the agreement and the difference annotation go on the pricing results, the
   * cost on the priced sessions (null for the priced ones that are not roaming), then billing.
   */
  async save(em: Em, outcomes: { id: string; status: string }[], results: Record<string, unknown>[]): Promise<void> {
    if (!this.enabled) return;
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
      if (difference) result.annotations = { ...(result.annotations as Record<string, string>), roaming_amount_difference: difference };
    }
    const priced = outcomes.filter((o) => o.status === 'priced').map((o) => o.id);
    if (priced.length === 0) return;
    const rows = priced.map((id) => {
      const c = this.calculated.get(id);
      return c ? {
        id, roaming_partner_id: c.partner.id, roaming_connection_id: c.connection?.id ?? null, roaming_agreement_id: c.agreement?.id ?? null,
        roaming_admin_id: c.adminId, roaming_cost_source: c.cost.source, roaming_currency: c.cost.currency,
        roaming_cost_excl_vat: c.cost.exclVat, roaming_cost_vat: c.cost.vat, roaming_cost_incl_vat: c.cost.inclVat,
        roaming_vat_kind: c.cost.vatKind, roaming_vat_percent: c.cost.vatPercent, roaming_flat_excl_vat: c.cost.split.flat,
        roaming_energy_excl_vat: c.cost.split.energy, roaming_time_excl_vat: c.cost.split.time, roaming_reservation_excl_vat: c.cost.split.reservation,
      } : { id };
    });
    await em.execute(SAVE, [JSON.stringify(rows)]);
    await billRoamingCosts(em, priced);
  }
}

/** Loads what the batch's roaming sessions need, with one query per kind (none when roaming is off). */
export async function roamingBatch(em: Em, sessions: RoamingSessionFacts[],
  vatRateAt: (country: string, kind: VatKind, at: Date) => VatRate | undefined): Promise<RoamingBatch> {
  const settings = await em.findOne(InstanceSettings, { id: 1 }, { filters: false });
  const empty = { partners: [], reported: [], connections: [], agreements: [], ratePlans: [], versions: [], vatRateAt };
  if (!settings?.roamingEnabled) return new RoamingBatch({ enabled: false, ...empty });
  const partyIds = [...new Set(sessions.filter((s) => s.source === 'charge_session' && s.cpo_id)
    .map((s) => normalizePartyId(s.cpo_id!)).filter((id): id is string => !!id))];
  const partners = partyIds.length ? await em.find(RoamingPartner, { cpoIds: { $overlap: partyIds } }, { filters: false }) : [];
  if (partners.length === 0) return new RoamingBatch({ enabled: true, ...empty });
  const roaming = sessions.filter((s) => s.source === 'charge_session');
  const reported = await em.execute<Reported[]>(REPORTED, [`{${roaming.map((s) => s.id).join(',')}}`]);
  const connectionIds = [...new Set(reported.map((r) => r.connection_id?.toLowerCase()).filter((id): id is string => !!id && isUuid(id)))];
  const connections = connectionIds.length ? await em.find(RoamingConnection, { id: { $in: connectionIds } }, { filters: false }) : [];
  const agreements = await em.find(RoamingAgreement, { partner: { $in: partners.map((p) => p.id) }, role: 'msp', defunct: false },
    { populate: ['connection'], filters: false });
  const ratePlanIds = [...new Set(agreements.map((a) => a.ratePlanId).filter((id): id is string => !!id))];
  const ratePlans = ratePlanIds.length ? await em.find(RatePlan, { id: { $in: ratePlanIds } }, { filters: false }) : [];
  const versions = ratePlanIds.length
    ? await em.find(RatePlanVersion, { ratePlan: { $in: ratePlanIds } }, { orderBy: { validFrom: 'desc' }, filters: false })
    : [];
  return new RoamingBatch({ enabled: true, partners, reported, connections, agreements, ratePlans, versions, vatRateAt });
}

export { RoamingFailure };
