// Comparing a GraphQL object type with its REST twin: REST's snake_case members camelCased, and
// the members that are null (GraphQL) or absent (REST) left out on both sides.
const camelKey = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `enums`: members that are GraphQL enums (their REST values upper-cased). */
export function camel(value: unknown, enums: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => camel(v, enums));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => {
      const key = camelKey(k);
      return [key, enums.includes(key) && typeof v === 'string' ? v.toUpperCase() : camel(v, enums)];
    }));
  }
  return value;
}

export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/** The REST value as GraphQL answers it: camelCased, nulls and absent members dropped. */
export const asGraphql = (rest: unknown, enums: string[] = []) => withoutNulls(camel(rest, enums));

export const RATE_PLAN_DEFINITION = `definition {
  rates { ...RatePlanRatesFields }
  rules { name vatKind script rates { ...RatePlanRatesFields } match { cpoPartyIds tariffCodes countries currentType minPowerKw maxPowerKw
    minDurationMinutes maxDurationMinutes minEnergyKwh maxEnergyKwh timeOfDay { from until } daysOfWeek dateFrom dateUntil } }
}`;

export const RATE_PLAN_RATES_FRAGMENT = `fragment RatePlanRatesFields on RatePlanRates {
  energy { price stepSize vatKind } time { price stepSize vatKind } parkingTime { price stepSize vatKind } flat { price stepSize vatKind }
  minPrice maxPrice
}`;
