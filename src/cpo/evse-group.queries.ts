// The MSP EVSE-group read of the App API (GET /{end_user_id}/msp-evse-group): EVSEs near a point,
// grouped per location with address and connectors, and the end user's energy price where one of
// their subscriptions applies. With no EVSE data in the instance at all it answers fixed demo
// groups flagged `demo: true` (an app can be built before the network is loaded).
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
  // A bounding box in SQL, nearest first there (a flat-earth distance, exact enough to rank within
  // 100 km), so the nearest are never cut by the limit; the exact distance here.
  const dLat = query.radiusM / 111_320;
  const cosLat = Math.max(0.01, Math.cos(query.latitude * Math.PI / 180));
  const dLon = query.radiusM / (111_320 * cosLat);
  const [lat, lon, cos] = [query.latitude, query.longitude, cosLat].map((n) => Number(n).toFixed(8));
  const locations = await em.find(EvseLocation, {
    deactivatedAt: null,
    latitude: { $gte: String(query.latitude - dLat), $lte: String(query.latitude + dLat) },
    longitude: { $gte: String(query.longitude - dLon), $lte: String(query.longitude + dLon) },
  }, {
    orderBy: [{ [raw((a) => `power(${a}.latitude - ${lat}, 2) + power((${a}.longitude - ${lon}) * ${cos}, 2)`)]: 'asc' }, { id: 'asc' }],
    limit: 4 * MAX_EVSE_GROUPS,
  });
  const near = locations
    .map((l) => ({ l, d: distanceM(query.latitude, query.longitude, Number(l.latitude), Number(l.longitude)) }))
    .filter(({ d }) => d <= query.radiusM)
    .sort((a, b) => a.d - b.d || a.l.id.localeCompare(b.l.id))
    .slice(0, MAX_EVSE_GROUPS);
  if (!near.length) return [];
  const evses = await em.find(Evse, { location: { $in: near.map(({ l }) => l.id) } }, { orderBy: { evseUid: 'asc' } });
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
