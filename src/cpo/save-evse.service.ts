// EVSEs: the deprecated create (POST /cpo-evse), merge-update by evse_uid, and the safe
// configuration switch dropout_all_chargesessions (turning it off may reprocess the drop-outs:
// src/sessions/reprocess.service.ts, which holds that use case). The writes answer plain data
// (evse.queries.ts); the reads are there too.
import { callerScope, canSeeAdministration } from '../access/admin-scope.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { normalizeEvseId } from './evse-id.ts';
import { Evse, type Connector } from './evse.entity.ts';
import { evseData, type EvseData } from './evse.queries.ts';
import { EvseLocation } from './evse-location.entity.ts';
import { EvseIdAssignment } from './evse-id-assignment.entity.ts';

export interface EvseFields {
  evseId: string;
  /** The location's location_id (resolved to the location; null detaches). */
  locationId: string;
  connectors: Connector[];
  dropoutAllChargesessions: boolean;
  reimbursementMandatory: boolean;
  externalUpdatedAt: Date;
}

const UNIQUE = { cpo_evse_evse_uid_unique: ['evse_uid'] };

/** The EVSE entity a write changes (its location loaded), or 400 not_found. */
async function loadEvse(em: Em, evseUid: string): Promise<Evse> {
  const evse = await em.findOne(Evse, { evseUid }, { populate: ['location'] });
  if (!evse) throw new NotFoundError('EVSE');
  return evse;
}

/** The location a patch names, of the EVSE's administration; undefined when the patch does not name one. */
async function locationOf(em: Em, evse: Evse, patch: Patch<EvseFields>): Promise<EvseLocation | null | undefined> {
  if (patch.locationId === undefined) return undefined;
  if (patch.locationId === null) return null;
  const location = await em.findOne(EvseLocation, { locationId: patch.locationId });
  if (!location) throw new NotFoundError('EVSE location', { path: ['location_id'] });
  if (location.admin.id.toLowerCase() !== evse.admin.id.toLowerCase()) {
    throw new DomainError('administration_mismatch', 'the EVSE and the location belong to different administrations', { path: ['location_id'] });
  }
  return location;
}

function apply(evse: Evse, patch: Patch<EvseFields>, location: EvseLocation | null | undefined): void {
  if (patch.externalUpdatedAt && evse.externalUpdatedAt && patch.externalUpdatedAt < evse.externalUpdatedAt) {
    throw new DomainError('outdated', 'external_updated_at is older than the stored one', { path: ['external_updated_at'] });
  }
  // An EVSE ID of separators only compares as "": it would name no EVSE, or every such one.
  if (patch.evseId != null && !normalizeEvseId(patch.evseId)) {
    throw new InvalidInputError('evse_id must hold more than separators ("NL*ABC*E123"; null removes it)', { path: ['evse_id'] });
  }
  // Sessions name a connector by its id (in any casing): two of one id would leave the second unreachable.
  const twice = patch.connectors?.findIndex((c, i) => patch.connectors!.slice(0, i).some((earlier) => earlier.id.toLowerCase() === c.id.toLowerCase())) ?? -1;
  if (twice >= 0) throw new DomainError('duplicate', `connector id ${patch.connectors![twice].id} is listed twice`, { path: ['connectors', twice, 'id'] });
  const { locationId: _named, ...fields } = patch;
  applyPatch(evse, { ...fields, connectors: patch.connectors === null ? [] : patch.connectors });
  if (location !== undefined) evse.location = location;
  if (patch.dropoutAllChargesessions === null) evse.dropoutAllChargesessions = false;
  if (patch.reimbursementMandatory === null) evse.reimbursementMandatory = false;
}

export function createEvse(em: Em, input: Patch<EvseFields> & { evseUid?: string; adminId?: string }): Promise<EvseData> {
  const { evseUid, adminId, ...fields } = input;
  return em.transactional(async (tx) => {
    if (!evseUid) throw new InvalidInputError('evse_uid is required', { path: ['evse_uid'] });
    const admin = await visibleAdministration(tx, adminId);
    if (await tx.count(Evse, { evseUid }, { filters: false })) throw new DomainError('duplicate', `EVSE ${evseUid} exists already`, { path: ['evse_uid'] });
    const evse = tx.create(Evse, { admin, evseUid });
    apply(evse, fields, await locationOf(tx, evse, fields));
    // The EVSE is inserted by the flush of its EVSE ID: a create of the same evse_uid sent at the
    // same moment that stored it first makes this one 400 duplicate, as a second create is.
    await assignEvseId(tx, evse, fields.evseId, () => flushUnique(tx, UNIQUE));
    return evseData(evse);
  });
}

export function updateEvse(em: Em, evseUid: string, patch: Patch<EvseFields>): Promise<EvseData> {
  return em.transactional(async (tx) => {
    const evse = await loadEvse(tx, evseUid);
    const previous = evse.evseIdNormalized ?? null;
    apply(evse, patch, await locationOf(tx, evse, patch));
    if (patch.evseId !== undefined && (patch.evseId ? normalizeEvseId(patch.evseId) : null) !== previous) await assignEvseId(tx, evse, patch.evseId);
    await tx.flush();
    return evseData(evse);
  });
}

/**
 * The EVSE takes the EVSE ID from now on: its earlier ID's assignment ends, and an EVSE that held
 * this ID loses it (its assignment ends too): sessions are matched by the holder at their start.
 */
const SINCE_ALWAYS = new Date('1900-01-01T00:00:00Z');

async function assignEvseId(em: Em, evse: Evse, evseId: string | null | undefined, flush = () => em.flush()): Promise<void> {
  const now = new Date();
  const normalized = evseId ? normalizeEvseId(evseId) : null;
  const open = await em.find(EvseIdAssignment, {
    validUntil: null, $or: [{ evse }, ...(normalized ? [{ evseIdNormalized: normalized }] : [])],
  }, { populate: ['evse'], filters: false });
  // An EVSE ID moves only between EVSEs the caller sees: one held in an administration the caller
  // cannot see is taken (400 duplicate), and the holder keeps it (decisions.md "Access").
  const scope = callerScope(em);
  if (open.some((a) => a.evse !== evse && a.evse.evseIdNormalized === normalized && !canSeeAdministration(scope, a.evse.admin.id))) {
    throw new DomainError('duplicate', `EVSE ID ${evseId} is held by another EVSE`, { path: ['evse_id'] });
  }
  for (const assignment of open) {
    assignment.validUntil = now;
    if (assignment.evse !== evse && assignment.evse.evseIdNormalized === normalized) {
      assignment.evse.evseId = null;
      assignment.evse.evseIdNormalized = null;
    }
  }
  evse.evseIdNormalized = normalized;
  if (evseId && normalized) {
    // The first holder of an EVSE ID holds it from the start: sessions that started before the EVSE was configured match it.
    const heldBefore = await em.count(EvseIdAssignment, { evseIdNormalized: normalized }, { filters: false });
    em.create(EvseIdAssignment, { evse, heldEvseId: evseId, evseIdNormalized: normalized, validFrom: heldBefore ? now : SINCE_ALWAYS });
  }
  await flush();
}

/**
 * The safe configuration switch, in the caller's transaction: while it is on, session processing
 * drops out every session at the EVSE (its use case with the retry of the drop-outs:
 * setDropoutAllChargesessions in src/sessions/reprocess.service.ts).
 */
export async function switchDropoutAllChargesessions(em: Em, evseUid: string, enabled: boolean): Promise<Evse> {
  const evse = await loadEvse(em, evseUid);
  evse.dropoutAllChargesessions = enabled;
  await em.flush();
  return evse;
}
