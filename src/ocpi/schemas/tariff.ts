// OCPI 2.2.1 tariffs module: Tariff, TariffElement, PriceComponent, TariffRestrictions, EnergyMix.
// The pricing evaluator (src/pricing/ocpi/tariff.ts) reads the same object.
import { arrayOf, countryCode, dateTime, displayText, enumOf, number, object, partyId, str, url } from './common.ts';

const TARIFF_TYPES = ['AD_HOC_PAYMENT', 'PROFILE_CHEAP', 'PROFILE_FAST', 'PROFILE_GREEN', 'REGULAR'] as const;
const DIMENSIONS = ['ENERGY', 'FLAT', 'PARKING_TIME', 'TIME'] as const;
const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
const ENERGY_SOURCES = ['NUCLEAR', 'GENERAL_FOSSIL', 'COAL', 'GAS', 'GENERAL_GREEN', 'SOLAR', 'WIND', 'WATER'] as const;

const time = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' };
/** A date of the calendar (validate.ts's keyword: 2026-02-30 is none). */
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', 'x-calendar-date': true };
/**
 * Prices and limits of a tariff: never negative, and at most a million (a price or a total of a
 * session): a negative price made a negative roaming cost, and 1e300 overflowed the amounts' columns.
 */
const amount = { type: 'number', minimum: 0, maximum: 1_000_000 };
const quantity = { type: 'number', minimum: 0 };
const tariffPrice = object({ excl_vat: amount, incl_vat: amount }, ['excl_vat']);

export const priceComponentSchema = object({
  type: enumOf(DIMENSIONS), price: amount, vat: { type: 'number', minimum: 0, maximum: 100 }, step_size: { type: 'integer', minimum: 0 },
}, ['type', 'price', 'step_size']);

export const tariffRestrictionsSchema = object({
  start_time: time, end_time: time, start_date: date, end_date: date, min_kwh: quantity, max_kwh: quantity, min_current: quantity,
  max_current: quantity, min_power: quantity, max_power: quantity, min_duration: { type: 'integer', minimum: 0 },
  max_duration: { type: 'integer', minimum: 0 }, day_of_week: arrayOf(enumOf(DAYS)),
  reservation: enumOf(['RESERVATION', 'RESERVATION_EXPIRES']),
}, []);

export const tariffElementSchema = object({
  price_components: arrayOf(priceComponentSchema, 1), restrictions: tariffRestrictionsSchema,
}, ['price_components']);

export const energyMixSchema = object({
  is_green_energy: { type: 'boolean' },
  energy_sources: arrayOf(object({ source: enumOf(ENERGY_SOURCES), percentage: number }, ['source', 'percentage'])),
  environ_impact: arrayOf(object({ category: enumOf(['NUCLEAR_WASTE', 'CARBON_DIOXIDE']), amount: number }, ['category', 'amount'])),
  supplier_name: str(64),
  energy_product_name: str(64),
}, ['is_green_energy']);

export const tariffSchema = object({
  country_code: countryCode, party_id: partyId, id: str(36), currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  type: enumOf(TARIFF_TYPES), tariff_alt_text: arrayOf(displayText), tariff_alt_url: url, min_price: tariffPrice, max_price: tariffPrice,
  elements: arrayOf(tariffElementSchema, 1), energy_mix: energyMixSchema, start_date_time: dateTime, end_date_time: dateTime,
  last_updated: dateTime,
}, ['country_code', 'party_id', 'id', 'currency', 'elements', 'last_updated']);

/**
 * A tariff a session carries (`historical_tariff`): what pricing reads must conform (elements,
 * prices, currency); the members that name it (country, party, id, last update) may be left out.
 */
export const pricedTariffSchema = { ...tariffSchema, required: ['currency', 'elements'] };
