// The EVSE and EVSE location reads both transports call (REST /cpo-evse, /cpo-evse-location;
// GraphQL Evse, EvseLocation, evseLocations): plain data, the caller's administrations only (the
// em's administration filter), seek paging by id.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Evse } from './evse.entity.ts';
import { EvseLocation } from './evse-location.entity.ts';

export type EvseLocationData = Data<EvseLocation>;

/** An EVSE with the location_id of its location (REST location_id, GraphQL locationId). */
export type EvseData = Data<Evse> & { locationId: string | null };

type Row = Record<string, any>;

const locationOfRow = (row: Row): EvseLocationData => ({ ...row, admin: refOf(row.admin) }) as EvseLocationData;

const evseOfRow = (row: Row): EvseData => ({
  ...row, admin: refOf(row.admin), location: refOf(row.location), locationId: row.location?.locationId ?? null,
}) as EvseData;

/** The data of an EVSE entity a write changed (its location loaded when it has one). */
export function evseData(evse: Evse): EvseData {
  return Object.assign(plainData(evse), { locationId: evse.location?.locationId ?? null });
}

const evses = (em: Em, where: FilterQuery<Evse> = {}) => new SeekList<EvseData>(em, { entity: Evse, where, join: ['location'], map: evseOfRow });
const locations = (em: Em, where: FilterQuery<EvseLocation> = {}) => new SeekList<EvseLocationData>(em, { entity: EvseLocation, where, map: locationOfRow });

export interface EvseFilter {
  adminId?: string;
  /** The location_id of its location. */
  locationId?: string;
}

/** EVSEs by id, filtered (several filters combine with AND). */
export function evseList(em: Em, filter: EvseFilter = {}): SeekList<EvseData> {
  return evses(em, {
    ...(filter.adminId !== undefined ? { admin: filter.adminId } : {}),
    ...(filter.locationId !== undefined ? { location: { locationId: filter.locationId } } : {}),
  });
}

/** An EVSE by evse_uid, or 400 not_found. */
export async function getEvse(em: Em, evseUid: string): Promise<EvseData> {
  const [evse] = await evses(em, { evseUid }).all();
  if (!evse) throw new NotFoundError('EVSE');
  return evse;
}

export function evsesByIds(em: Em, ids: readonly string[]): Promise<(EvseData | null)[]> {
  return inIdOrder(ids, (wanted) => evses(em, { id: { $in: wanted } }).all());
}

export function evseLocationList(em: Em): SeekList<EvseLocationData> {
  return locations(em);
}

/** A location by location_id, or 400 not_found. */
export async function getEvseLocation(em: Em, locationId: string): Promise<EvseLocationData> {
  const [location] = await locations(em, { locationId }).all();
  if (!location) throw new NotFoundError('EVSE location');
  return location;
}

export function evseLocationsByIds(em: Em, ids: readonly string[]): Promise<(EvseLocationData | null)[]> {
  return inIdOrder(ids, (wanted) => locations(em, { id: { $in: wanted } }).all());
}
