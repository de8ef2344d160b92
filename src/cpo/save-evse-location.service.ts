// EVSE locations: the deprecated create (POST /cpo-evse-location) and merge-update by location_id.
// Coordinates are exact decimals within their ranges; the time zone is an IANA zone. The writes
// answer plain data; the reads are in evse.queries.ts.
import { compareDecimal, parseDecimal } from '../money/decimal.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { isCountryCode } from '../platform/countries.ts';
import { DomainError, InvalidInputError, NotFoundError, type ErrorDetail } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { isTimeZone } from '../pricing/local-time.ts';
import { EvseLocation } from './evse-location.entity.ts';
import type { EvseLocationData } from './evse.queries.ts';

export interface EvseLocationFields {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  latitude: string;
  longitude: string;
  cpoId: string;
  timeZone: string;
  deactivatedAt: Date;
  externalUpdatedAt: Date;
}

const UNIQUE = { cpo_evse_location_location_id_unique: ['location_id'] };

/** The longest location_id: REST's body member and GraphQL's argument alike. */
export const MAX_LOCATION_ID = 64;

/** The location entity a write changes, or 400 not_found. */
async function loadEvseLocation(em: Em, locationId: string): Promise<EvseLocation> {
  const location = await em.findOne(EvseLocation, { locationId });
  if (!location) throw new NotFoundError('EVSE location');
  return location;
}

function coordinate(value: string | null | undefined, member: 'latitude' | 'longitude', limit: string, failures: ErrorDetail[]) {
  if (value === undefined || value === null) return value;
  try {
    const parsed = parseDecimal(value, [member]);
    if (compareDecimal(parsed, limit) > 0 || compareDecimal(parsed, `-${limit}`) < 0) failures.push({ path: [member], message: `${member} must be within ±${limit}` });
    return parsed;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    failures.push({ path: [member], message: error.message });
    return value;
  }
}

function apply(location: EvseLocation, patch: Patch<EvseLocationFields>): void {
  if (patch.externalUpdatedAt && location.externalUpdatedAt && patch.externalUpdatedAt < location.externalUpdatedAt) {
    throw new DomainError('outdated', 'external_updated_at is older than the stored one', { path: ['external_updated_at'] });
  }
  const failures: ErrorDetail[] = [];
  const latitude = coordinate(patch.latitude, 'latitude', '90', failures);
  const longitude = coordinate(patch.longitude, 'longitude', '180', failures);
  if (patch.timeZone != null && !isTimeZone(patch.timeZone)) failures.push({ path: ['time_zone'], message: 'time_zone must be an IANA time zone' });
  if (patch.country && !isCountryCode(patch.country)) failures.push({ path: ['country'], message: 'country must be an officially assigned ISO 3166-1 alpha-2 code' });
  if (failures.length) throw DomainError.of('invalid_input', failures);
  applyPatch(location, { ...patch, latitude, longitude, country: patch.country ? patch.country.toUpperCase() : patch.country });
}

export function createEvseLocation(em: Em, input: Patch<EvseLocationFields> & { locationId?: string; adminId?: string }): Promise<EvseLocationData> {
  const { locationId, adminId, ...fields } = input;
  return em.transactional(async (tx) => {
    if (!locationId) throw new InvalidInputError('location_id is required', { path: ['location_id'] });
    if (locationId.length > MAX_LOCATION_ID) {
      throw new DomainError('validation_failed', `location_id must be at most ${MAX_LOCATION_ID} characters`, { path: ['location_id'] });
    }
    // Unique in the instance: taken also when the holder is of an administration the caller cannot see.
    if (await tx.count(EvseLocation, { locationId }, { filters: false })) {
      throw new DomainError('duplicate', `location ${locationId} exists already`, { path: ['location_id'] });
    }
    const admin = await visibleAdministration(tx, adminId);
    const location = tx.create(EvseLocation, { admin, locationId });
    apply(location, fields);
    await flushUnique(tx, UNIQUE);
    return plainData(location);
  });
}

export function updateEvseLocation(em: Em, locationId: string, patch: Patch<EvseLocationFields>): Promise<EvseLocationData> {
  return em.transactional(async (tx) => {
    const location = await loadEvseLocation(tx, locationId);
    apply(location, patch);
    await tx.flush();
    return plainData(location);
  });
}

/**
 * Create-or-merge-update by location_id (GraphQL saveEvseLocation): a location the caller can see
 * is merge-updated (admin_id ignored); otherwise it is created (admin_id required), so a location_id
 * held by an administration the caller cannot see is taken: 400 duplicate at location_id, as on create.
 */
export async function saveEvseLocation(em: Em, locationId: string, input: Patch<EvseLocationFields> & { adminId?: string }): Promise<EvseLocationData> {
  const { adminId, ...fields } = input;
  if (await em.count(EvseLocation, { locationId })) return updateEvseLocation(em, locationId, fields);
  return createEvseLocation(em, { ...fields, locationId, adminId });
}
