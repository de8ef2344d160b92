// One charge of our own driver at our own EVSE reaches us twice: as the CPO session (POST
// /cpo-charge-session, whose processing prices our driver's side too) and as the driver's session
// the CPO reports (POST /charge-session). Its driver's side is priced once. The two are one charge
// when they name the same token (as it resolved), the same local EVSE (the CPO session's matched
// one) and the same start instant. The session that holds the charge's pricing is the one that was
// ever priced (`pricing_version > 0`) and is not discarded, so a repricing of either, or of both at
// once, never moves it; a discarded one (its item withdrawn when it dropped out) holds nothing, and the
// other report takes the charge (found by probing, 2026-11-29: the charge went unbilled); when both were
// (before this rule) the earlier session holds it; when neither, the first of the batch priced.
// The other is processed on the CPO side only, or drops out as `charged_as_cpo_session`.
//
// Batches of two workers holding the two sessions take turns: a lock per token and start (its own
// class, after the fee lock's 736400125), taken in hash order before the batch's other locks
// and held to the commit, makes the second read the first's outcome.
import type { Evse } from '../cpo/evse.entity.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import type { ClaimedSession } from './claim-batch.ts';
import { Dropped } from './dropout-reasons.ts';
import { loadLocalEvses, type EvseFacts } from './local-evse.ts';

/** A session's token and the subscription it resolved to (batch-context.ts `resolved`). */
interface TokenOfOurs { token: { id: string }; subscription: { id: string } }

interface Counterpart extends EvseFacts { of_id: string; id: string; matched_evse_id: string | null }

const LOCK_CHARGES = `select count(pg_advisory_xact_lock(736400126, h))
  from (select distinct hashtext(k) as h from json_array_elements_text(?::json) as k order by h) ordered`;

// The other source's sessions ever priced with the same token and start, found by the token's
// contract id (any casing) or by the subscription and token it was priced on (another spelling of
// the contract id), each through its index.
const COUNTERPARTS = `select x.id as of_id, c.id, c.evse_uid, c.evse_id, c.start_at, c.matched_evse_id
  from jsonb_to_recordset($1::jsonb) as x(id uuid, source text, evco_id citext, subscription_id uuid, token_id uuid, start_at timestamptz)
  cross join lateral (
    select id, source, evse_uid, evse_id, start_at, matched_evse_id, pricing_version, status from msp_charge_session
      where evco_id = x.evco_id and start_at = x.start_at
    union
    select id, source, evse_uid, evse_id, start_at, matched_evse_id, pricing_version, status from msp_charge_session
      where subscription_id = x.subscription_id and start_at = x.start_at and token_id = x.token_id) c
  where c.source <> x.source and c.pricing_version > 0 and c.status <> 'discarded' and c.id <> all($2::uuid[])`;

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

export class OwnCharges {
  private readonly keys = new Map<string, string>();
  /** Per charge: its sessions in the batch, and those of them priced by the batch so far. */
  private readonly batch = new Map<string, ClaimedSession[]>();
  private readonly pricedNow = new Map<string, ClaimedSession[]>();
  /** Per session of the batch, the ids of the other source's sessions of its charge ever priced. */
  private readonly stored: Map<string, string[]>;

  constructor(charges: { session: ClaimedSession; key: string }[], stored: Map<string, string[]>) {
    this.stored = stored;
    for (const { session, key } of charges) {
      this.keys.set(session.id, key);
      add(this.batch, key, session);
    }
  }

  /** Whether the driver's side of the session's charge is priced on its other report. */
  pricedElsewhere(session: ClaimedSession): boolean {
    const key = this.keys.get(session.id);
    if (!key) return false;
    const everPriced = [
      ...this.stored.get(session.id) ?? [],
      ...(this.batch.get(key) ?? []).filter((s) => s.source !== session.source && s.pricing_version > 0).map((s) => s.id),
    ];
    if (session.pricing_version > 0) return everPriced.some((id) => id < session.id);
    return everPriced.length > 0 || !!this.pricedNow.get(key)?.some((s) => s.source !== session.source);
  }

  /** The session's driver's side was priced by the batch. */
  priced(session: ClaimedSession): void {
    const key = this.keys.get(session.id);
    if (key) add(this.pricedNow, key, session);
  }
}

/** The drop-out of a session of POST /charge-session whose charge is priced on its CPO session. */
export function chargedAsCpoSession(): Dropped {
  return new Dropped('charged_as_cpo_session', 'the driver\'s side of this charge is priced on its CPO session (the same token, EVSE and start): '
    + 'this report of it is not priced again');
}

/**
 * The batch's charges of a token of ours at an EVSE of ours (locked), and the sessions of the other
 * source already priced for them.
 */
export async function loadOwnCharges(em: Em, sessions: ClaimedSession[], resolved: (s: ClaimedSession) => TokenOfOurs | undefined,
  localEvse: (s: EvseFacts) => Evse | undefined): Promise<OwnCharges> {
  const charges = sessions.flatMap((session) => {
    const r = resolved(session);
    const evse = r && localEvse(session);
    return r && evse ? [{ session, r, evse, key: `${r.token.id}|${session.start_at.toISOString()}|${evse.id}` }] : [];
  });
  if (charges.length === 0) return new OwnCharges([], new Map());
  await em.execute(LOCK_CHARGES, [JSON.stringify(charges.map((c) => `${c.r.token.id}|${c.session.start_at.toISOString()}`))]);
  const found = await boundQuery<Counterpart>(em, COUNTERPARTS, [
    JSON.stringify(charges.map(({ session, r }) => ({
      id: session.id, source: session.source, evco_id: session.evco_id, subscription_id: r.subscription.id, token_id: r.token.id, start_at: session.start_at,
    }))),
    `{${sessions.map((s) => s.id).join(',')}}`,
  ]);
  for (const c of found) c.start_at = new Date(c.start_at);
  const { localEvse: theirEvse } = await loadLocalEvses(em, found.filter((c) => !c.matched_evse_id));
  const evseOf = new Map(charges.map((c) => [c.session.id, c.evse.id]));
  const stored = new Map<string, string[]>();
  for (const c of found) if ((c.matched_evse_id ?? theirEvse(c)?.id) === evseOf.get(c.of_id)) add(stored, c.of_id, c.id);
  return new OwnCharges(charges, stored);
}
