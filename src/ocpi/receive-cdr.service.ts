// A CDR a CPO pushes (POST cdrs): checked against the OCPI schema, read as a charge session body
// (cdr-to-session.ts) and checked as the pipeline checks POST /charge-session (the transport hands
// that check in as `check`), then ingested like any charge session. A CDR failing either check is
// kept as an invalid CDR with its reason and refused (OCPI 2001), as is a credit CDR and a second CDR
// of one Session (OCPI's correction: a credit CDR, then a new CDR of another id), which would price
// the charge again; a CDR that passes resolves the invalid ones of the same CDR
// (resolve-invalid-cdrs.ts) and ends the progress of its Session (session-cdr-link.ts).
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { identityKeyOf, ingestSession } from '../sessions/ingest-session.service.ts';
import type { IngestedSession, SessionSubmission } from '../sessions/session-submission.ts';
import { sessionBodyOfCdr } from './cdr-to-session.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { OcpiInvalidCdr } from './ocpi-invalid-cdr.entity.ts';
import { speaksFor } from './ocpi-peer.entity.ts';
import type { OcpiPeerData } from './ocpi-peer.queries.ts';
import { resolveInvalidCdrs } from './resolve-invalid-cdrs.ts';
import type { OcpiCdr } from './schemas/cdr.ts';
import { linkSessionOfCdr, otherCdrOfSession } from './session-cdr-link.ts';
import { ocpiFailure } from './validate.ts';
import { adminOfContractId } from './token-admin.ts';

/** The pipeline's basic checks of a charge session body: the submission, or a DomainError. */
export type SessionCheck = (body: Record<string, unknown>) => SessionSubmission;

type Caller = Pick<OcpiPeerData, 'roamingConnectionId' | 'roles'>;

async function refuse(em: Em, peer: Caller, raw: unknown, reason: string): Promise<never> {
  const cdrId = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : null;
  const contractId = (raw as { cdr_token?: { contract_id?: unknown } })?.cdr_token?.contract_id;
  em.create(OcpiInvalidCdr, {
    roamingConnectionId: peer.roamingConnectionId, cdrId, body: raw, reason, resolvedAt: null, chargeSessionId: null, admin: await adminOfContractId(em, contractId),
  });
  await em.flush();
  throw new OcpiError(OCPI_STATUS.invalidParameters, `invalid CDR, kept for review: ${reason}`, 400);
}

const COSTS = ['total_cost', 'total_fixed_cost', 'total_energy_cost', 'total_time_cost', 'total_parking_cost', 'total_reservation_cost'] as const;

/**
 * A CDR's amounts are in its currency; a session's reported amounts are read in its administration's
 * (the cost a rule script sees, the reported roaming cost). A CDR with amounts in another currency
 * than the administration of its token is kept for review rather than read as that currency (a
 * historical tariff in another currency drops out in processing). Answers why, or null.
 */
async function amountsInAnotherCurrency(em: Em, cdr: OcpiCdr): Promise<string | null> {
  if (!COSTS.some((member) => cdr[member] !== undefined)) return null;
  const admin = await adminOfContractId(em, cdr.cdr_token.contract_id);
  if (!admin) return null;
  const [row] = await em.execute<{ currency: string }[]>('select currency from administration where id = ?', [admin.id]);
  return row && row.currency !== cdr.currency
    ? `the CDR's amounts are in ${cdr.currency}, the administration of its token bills in ${row.currency}` : null;
}

/** Whether a session of this identity is stored that another connection reported. */
async function reportedElsewhere(em: Em, peer: Caller, submission: SessionSubmission): Promise<boolean> {
  const [taken] = await em.execute<{ found: number }[]>(`select 1 as found from msp_charge_session where identity_key = ?
    and payload->>'roaming_connection_id' is distinct from ?::text`, [identityKeyOf(submission), peer.roamingConnectionId]);
  return taken !== undefined;
}

export async function receiveCdr(em: Em, peer: Caller, raw: unknown, check: SessionCheck): Promise<IngestedSession> {
  const credited = creditOf(raw);
  if (credited !== undefined) {
    return refuse(em, peer, raw, `a credit CDR${credited ? ` of CDR ${credited}` : ''} is kept for review: the service does not reverse a session on its own`);
  }
  const failure = ocpiFailure('cdr', raw);
  if (failure) return refuse(em, peer, raw, failure);
  const cdr = raw as OcpiCdr;
  if (!speaksFor(peer, cdr.country_code, cdr.party_id)) return refuse(em, peer, raw, `party ${cdr.country_code}*${cdr.party_id} is not one of this connection's`);
  const currency = await amountsInAnotherCurrency(em, cdr);
  if (currency) return refuse(em, peer, raw, currency);
  const mapped = sessionBodyOfCdr(cdr, peer.roamingConnectionId);
  if ('failure' in mapped) return refuse(em, peer, raw, mapped.failure);
  let submission: SessionSubmission;
  try {
    submission = check(mapped.body);
  } catch (error) {
    if (error instanceof DomainError) return refuse(em, peer, raw, error.message);
    throw error;
  }
  // OCPI corrects a CDR by a credit CDR and a new CDR of another id: a second CDR of one Session would
  // price the charge again. (Two CDRs of one Session sent at the same moment can both pass: a CPO can
  // invent sessions anyway; this catches the correction.)
  if (cdr.session_id) {
    const key = { countryCode: cdr.country_code, partyId: cdr.party_id, sessionId: cdr.session_id };
    const earlier = await otherCdrOfSession(em, peer.roamingConnectionId, key, submission.evcoId, identityKeyOf(submission));
    if (earlier) return refuse(em, peer, raw, `CDR ${earlier} of session ${cdr.session_id} is stored already: another CDR of the session corrects it and is kept for review, not priced again`);
  }
  // A session another connection reported is not this peer's to replace (decisions: a peer speaks only for its own parties).
  const takenElsewhere = `a session ${cdr.id} of party ${cdr.country_code}*${cdr.party_id} came through another connection`;
  if (await reportedElsewhere(em, peer, submission)) return refuse(em, peer, raw, takenElsewhere);
  let stored: IngestedSession;
  try {
    // Named, the connection is checked again under the session's row lock: another connection may store the id first meanwhile.
    stored = await ingestSession(em, { ...submission, roamingConnectionId: peer.roamingConnectionId });
  } catch (error) {
    if (error instanceof DomainError && await reportedElsewhere(em, peer, submission)) return refuse(em, peer, raw, takenElsewhere);
    throw error;
  }
  await em.transactional(async (tx) => {
    await resolveInvalidCdrs(tx, peer.roamingConnectionId, cdr, stored.id);
    await linkSessionOfCdr(tx, peer.roamingConnectionId, cdr, stored.id);
  });
  return stored;
}

/** A credit CDR's `credit_reference_id` ('' without one), or undefined for any other CDR. */
function creditOf(raw: unknown): string | undefined {
  const { credit, credit_reference_id: reference } = (raw ?? {}) as { credit?: unknown; credit_reference_id?: unknown };
  if (credit !== true) return undefined;
  // Named in the reason only when it is an id OCPI allows (printable ASCII, at most 39 characters).
  return typeof reference === 'string' && /^[\x20-\x7e]{1,39}$/.test(reference) ? reference : '';
}
