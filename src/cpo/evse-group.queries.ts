// The MSP EVSE-group read of the App API (GET /{end_user_id}/msp-evse-group): EVSEs of the end user's
// administration near a point, grouped per location with address and connectors, and the end user's
// energy price where one of their subscriptions applies. With no EVSE data in the instance at all it
// answers fixed demo groups flagged `demo: true` (an app can be built before the network is loaded).
import type { EndUserScope } from '../end-users/end-user-scope.ts';
import { raw } from '@mikro-orm/core';
import { findVersionAt } from '../contracts/versions.ts';
import { normalize } from '../money/decimal.ts';
import type { Em } from '../platform/orm.ts';
import { SubscriptionPlan } from '../msp/subscription-plan.entity.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { type Connector, Evse } from './evse.entity.ts';
import { EvseLocation } from './evse-location.entity.ts';

export interface EvseGroupQuery { latitude: number; longitude: number; radiusM: number }

export interface EvseGroupData {
  locationId: string;
  name: string | null;
  address: { street: string | null; postalCode: string | null; city: string | null; country: string | null };
  latitude: string;
  longitude: string;
  distanceM: number;
  evses: { evseUid: string; evseId: string | null; connectors: Connector[] }[];
  pricePerKwhExclVat: string | null;
  currency: string | null;
  demo: boolean;
}

/** At most this many groups, nearest first. */
export const MAX_EVSE_GROUPS = 200;
const EARTH_RADIUS_M = 6_371_000;

function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a))));
}

/**
 * Ranges of latitude and longitude (degrees) holding every point within `radiusM` of the centre by
 * distanceM's great-circle distance: latitude ± the angular radius; longitude ± asin(sin δ / cos φ),
 * in two ranges when that crosses ±180, the whole circle when the latitude range reaches a pole.
 * A metre more than the radius: distanceM rounds to the metre, and a margin for floating point.
 */
function boundingBox(latitude: number, longitude: number, radiusM: number): { latitude: [number, number]; longitude: [number, number][] } {
  const rad = Math.PI / 180;
  const delta = (radiusM + 1) / EARTH_RADIUS_M;
  const [south, north] = [latitude - delta / rad, latitude + delta / rad];
  if (south <= -90 || north >= 90) return { latitude: [Math.max(-90, south), Math.min(90, north)], longitude: [[-180, 180]] };
  const dLon = Math.asin(Math.sin(delta) / Math.cos(latitude * rad)) / rad;
  const [west, east] = [longitude - dLon, longitude + dLon];
  if (west < -180) return { latitude: [south, north], longitude: [[west + 360, 180], [-180, east]] };
  if (east > 180) return { latitude: [south, north], longitude: [[west, 180], [-180, east - 360]] };
  return { latitude: [south, north], longitude: [[west, east]] };
}

/** The energy price (excl. VAT) of the rate plan of the first of the end user's subscriptions valid now. */
async function endUserEnergyPrice(em: Em, scope: EndUserScope, now: Date): Promise<{ price: string | null; currency: string | null }> {
  if (!scope.subscriptionIds.length) return { price: null, currency: null };
  const subscriptions = await em.find(TokenSubscription, { id: { $in: scope.subscriptionIds }, defunct: false }, { orderBy: { id: 'asc' } });
  const valid = subscriptions.find((s) => s.isValidAt(now));
  if (!valid) return { price: null, currency: null };
  const plan = await em.findOne(SubscriptionPlan, { id: valid.plan.id });
  if (!plan?.ratePlanId) return { price: null, currency: null };
  const [ratePlan, version] = await Promise.all([
    em.findOne(RatePlan, { id: plan.ratePlanId }, { filters: false }),
    findVersionAt(em, RatePlanVersion, { ratePlan: plan.ratePlanId }, now, { filters: false }),
  ]);
  const price = version?.definition.rates.energy?.price;
  return { price: price ? normalize(price) : null, currency: ratePlan?.currency ?? null };
}

const DEMO_GROUPS: Omit<EvseGroupData, 'distanceM' | 'pricePerKwhExclVat' | 'currency'>[] = [
  {
    locationId: 'DEMO-LOC-1', name: 'Demo station Stationsplein',
    address: { street: 'Stationsplein 1', postalCode: '3511 ED', city: 'Utrecht', country: 'NL' },
    latitude: '52.089444', longitude: '5.110278',
    evses: [
      { evseUid: 'DEMO-EVSE-1', evseId: 'NL*DEM*E0001', connectors: [{ id: '1', standard: 'IEC_62196_T2', format: 'SOCKET', power_type: 'ac_3phase', max_power_kw: '22' }] },
      { evseUid: 'DEMO-EVSE-2', evseId: 'NL*DEM*E0002', connectors: [{ id: '1', standard: 'IEC_62196_T2_COMBO', format: 'CABLE', power_type: 'dc', max_power_kw: '150' }] },
    ],
    demo: true,
  },
  {
    locationId: 'DEMO-LOC-2', name: 'Demo station Domplein',
    address: { street: 'Domplein 9', postalCode: '3512 JC', city: 'Utrecht', country: 'NL' },
    latitude: '52.090833', longitude: '5.121944',
    evses: [
      { evseUid: 'DEMO-EVSE-3', evseId: 'NL*DEM*E0003', connectors: [{ id: '1', standard: 'IEC_62196_T2', format: 'SOCKET', power_type: 'ac_3phase', max_power_kw: '11' }] },
    ],
    demo: true,
  },
];

export async function evseGroups(em: Em, scope: EndUserScope, query: EvseGroupQuery, now = new Date()): Promise<EvseGroupData[]> {
  const { price, currency } = await endUserEnergyPrice(em, scope, now);
  const [anyEvse] = await em.find(Evse, {}, { filters: false, fields: ['id'], limit: 1 });
  if (!anyEvse) {
    return DEMO_GROUPS.map((g) => ({
      ...g, distanceM: distanceM(query.latitude, query.longitude, Number(g.latitude), Number(g.longitude)), pricePerKwhExclVat: price, currency,
    }));
  }
  // A bounding box in SQL (plain ranges of the columns), nearest first there by the great-circle
  // distance itself, so the nearest are never cut by the limit; the distance answered here.
  const box = boundingBox(query.latitude, query.longitude, query.radiusM);
  const [lat, lon] = [query.latitude, query.longitude].map((n) => n.toFixed(9));
  const cosLat = Math.cos(query.latitude * Math.PI / 180).toFixed(15);
  const range = ([from, to]: [number, number]) => ({ $gte: from.toFixed(9), $lte: to.toFixed(9) });
  // The end user's administration only, whatever the credential's limits (as their scope's subscriptions).
  const locations = await em.find(EvseLocation, {
    admin: scope.adminId,
    deactivatedAt: null,
    latitude: range(box.latitude),
    $or: box.longitude.map((r) => ({ longitude: range(r) })),
  }, {
    // The haversine term of distanceM (monotone in the distance; a longitude difference of 360 counts as 0).
    orderBy: [{
      [raw((a) => `power(sin(radians(${a}.latitude - ${lat}) / 2), 2) + ${cosLat} * cos(radians(${a}.latitude)) * power(sin(radians(${a}.longitude - ${lon}) / 2), 2)`)]: 'asc',
    }, { id: 'asc' }],
    limit: 4 * MAX_EVSE_GROUPS,
  });
  const near = locations
    .map((l) => ({ l, d: distanceM(query.latitude, query.longitude, Number(l.latitude), Number(l.longitude)) }))
    .filter(({ d }) => d <= query.radiusM)
    .sort((a, b) => a.d - b.d || a.l.id.localeCompare(b.l.id))
    .slice(0, MAX_EVSE_GROUPS);
  if (!near.length) return [];
  const evses = await em.find(Evse, { admin: scope.adminId, location: { $in: near.map(({ l }) => l.id) } }, { orderBy: { evseUid: 'asc' } });
  return near.map(({ l, d }) => ({
    locationId: l.locationId,
    name: l.name ?? null,
    address: { street: l.street ?? null, postalCode: l.postalCode ?? null, city: l.city ?? null, country: l.country ?? null },
    latitude: normalize(l.latitude!),
    longitude: normalize(l.longitude!),
    distanceM: d,
    evses: evses.filter((e) => e.location?.id === l.id).map((e) => ({ evseUid: e.evseUid, evseId: e.evseId ?? null, connectors: e.connectors })),
    pricePerKwhExclVat: price,
    currency,
    demo: false,
  }));
}
