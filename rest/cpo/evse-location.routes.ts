import * as yup from 'yup';
import { evseLocationList, getEvseLocation, type EvseLocationData } from '../../src/cpo/evse.queries.ts';
import { createEvseLocation, MAX_LOCATION_ID, updateEvseLocation, type EvseLocationFields } from '../../src/cpo/save-evse-location.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { coordinate, countryCode, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'CPO EVSEs';

export const evseLocationShape = representation('EvseLocation', {
  id: t.string(),
  location_id: t.string(),
  admin_id: t.string(),
  name: t.nullable(t.string()),
  address: t.object({ street: t.nullable(t.string()), postal_code: t.nullable(t.string()), city: t.nullable(t.string()), country: t.nullable(t.string()) }),
  latitude: t.nullable(t.decimal()),
  longitude: t.nullable(t.decimal()),
  cpo_id: t.nullable(t.string()),
  time_zone: t.nullable(t.string()),
  deactivated_at: t.nullable(t.timestamp()),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

function serialize(l: EvseLocationData): Infer<typeof evseLocationShape> {
  return {
    id: l.id, location_id: l.locationId, admin_id: l.admin.id, name: l.name ?? null,
    address: { street: l.street ?? null, postal_code: l.postalCode ?? null, city: l.city ?? null, country: l.country ?? null },
    latitude: l.latitude ? normalize(l.latitude) : null, longitude: l.longitude ? normalize(l.longitude) : null, cpo_id: l.cpoId ?? null,
    time_zone: l.timeZone ?? null, deactivated_at: iso(l.deactivatedAt), external_updated_at: iso(l.externalUpdatedAt),
    created_at: iso(l.createdAt), updated_at: iso(l.updatedAt),
  };
}

const locationBody = yup.object({
  name: text().nullable(),
  address: yup.object({ street: text().nullable(), postal_code: text(32).nullable(), city: text().nullable(), country: countryCode().nullable() })
    .default(undefined).nullable(),
  latitude: coordinate().nullable(),
  longitude: coordinate().nullable(),
  cpo_id: text(32).nullable(),
  time_zone: text(64).nullable(),
  deactivated_at: timestamp().nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  name: 'name', latitude: 'latitude', longitude: 'longitude', cpo_id: 'cpoId', time_zone: 'timeZone',
  deactivated_at: { to: 'deactivatedAt', convert: isoDate }, external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

/** The flat patch of a body: the address members merge one by one (null clears the whole address). */
function patch(body: yup.InferType<typeof locationBody>): Patch<EvseLocationFields> {
  const fields = patchFrom(body as Record<string, unknown>, MAPPING) as Patch<EvseLocationFields>;
  if (body.address === null) return { ...fields, street: null, postalCode: null, city: null, country: null };
  if (body.address) {
    const a = body.address;
    return {
      ...fields, ...(a.street !== undefined ? { street: a.street } : {}), ...(a.postal_code !== undefined ? { postalCode: a.postal_code } : {}),
      ...(a.city !== undefined ? { city: a.city } : {}), ...(a.country !== undefined ? { country: a.country } : {}),
    };
  }
  return fields;
}

export const evseLocationRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/cpo-evse-location', tag: TAG, extension: true, paged: true, response: evseLocationShape, summary: 'List EVSE locations',
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, { list: evseLocationList(em), rawQuery, path: ctx.path, serialize }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-evse-location', tag: TAG, deprecated: true, response: evseLocationShape, summary: 'Create an EVSE location',
    description: 'location_id identifies the location; EVSEs name it in their location_id.',
    body: locationBody.shape({ location_id: text(MAX_LOCATION_ID).defined('${path} is required'), admin_id: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serialize(await createEvseLocation(em, { ...patch(body), locationId: body.location_id, adminId: body.admin_id })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-evse-location/:location_id', tag: TAG, extension: true, response: evseLocationShape, summary: 'Get an EVSE location',
    handler: async ({ em, params }) => serialize(await getEvseLocation(em, params.location_id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-evse-location/:location_id', tag: TAG, graphql: 'saveEvseLocation', body: locationBody, response: evseLocationShape,
    summary: 'Merge-update an EVSE location (latitude and longitude as decimal strings)',
    handler: async ({ em, params, body }) => serialize(await updateEvseLocation(em, params.location_id, patch(body))),
  }),
];
