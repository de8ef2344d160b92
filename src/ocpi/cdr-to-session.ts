// A CDR read as the body of POST /charge-session (rest/sessions/session-body.ts), so that it enters
// the pipeline as any charge_session does: the CDR id is the session id (a corrected CDR is a
// resubmission of the same session), the CPO party is the sender, amounts and volumes become
// decimal strings, only energy dimensions of the periods are kept (the pipeline prices energy).
// A CDR that contradicts itself (parking longer than the session, ...) is refused here, naming its member.
import { decimalFromNumber } from '../money/decimal.ts';
import { contradictionOf } from '../sessions/session-consistency.ts';
import { countryOf } from './countries.ts';
import { ocpiDateTime, utc } from './date-time.ts';
import type { OcpiCdr, OcpiPrice } from './schemas/cdr.ts';

// utc moved to date-time.ts, the reading of OCPI DateTimes; kept here for the modules that import it from here.
export { utc };

const amount = (price: OcpiPrice | undefined, vat: 'excl_vat' | 'incl_vat') =>
  price && price[vat] !== undefined ? decimalFromNumber(price[vat]!) : undefined;

export type CdrMapping = { body: Record<string, unknown> } | { failure: string };

/**
 * What a CDR contradicts itself in (src/sessions/session-consistency.ts), every period checked (the
 * session keeps only those with energy), named as the OCPI checks name members; or null.
 */
function contradictionOfCdr(cdr: OcpiCdr, idleSeconds: number): string | null {
  const startAt = ocpiDateTime(cdr.start_date_time);
  const endAt = ocpiDateTime(cdr.end_date_time);
  if (!startAt || !endAt) return null; // refused by the session's checks, naming the member
  const contradiction = contradictionOf({
    startAt, endAt, idleSeconds, periodStarts: cdr.charging_periods.map((period) => ocpiDateTime(period.start_date_time)),
    totalEnergyKwh: decimalFromNumber(cdr.total_energy),
    periodEnergyVolumes: cdr.charging_periods.flatMap((period) => period.dimensions.filter((d) => d.type === 'ENERGY').map((d) => decimalFromNumber(d.volume))),
  });
  if (!contradiction) return null;
  const member = contradiction.member === 'idle_time' ? 'total_parking_time'
    : contradiction.member === 'total_energy' ? 'total_energy' : `charging_periods/${contradiction.index}/start_date_time`;
  return `/${member} ${contradiction.message}`;
}

export function sessionBodyOfCdr(cdr: OcpiCdr, roamingConnectionId: string): CdrMapping {
  const country = countryOf(cdr.cdr_location.country);
  if (!country) return { failure: `cdr_location.country ${cdr.cdr_location.country} is not a country this service knows the time zone of` };
  const idleSeconds = cdr.total_parking_time === undefined ? undefined : Math.round(cdr.total_parking_time * 3600);
  const contradiction = contradictionOfCdr(cdr, idleSeconds ?? 0);
  if (contradiction) return { failure: contradiction };
  const periods = cdr.charging_periods
    .map((period) => ({
      start_date_time: utc(period.start_date_time),
      dimensions: period.dimensions.filter((d) => d.type === 'ENERGY').map((d) => ({ type: 'energy', volume: decimalFromNumber(d.volume) })),
    }))
    .filter((period) => period.dimensions.length > 0);
  const location = cdr.cdr_location;
  const body: Record<string, unknown> = {
    session_id: cdr.id,
    cpo_id: `${cdr.country_code}*${cdr.party_id}`,
    cpo_session_id: cdr.session_id,
    cpo_cdr_id: cdr.id,
    evco_id: cdr.cdr_token.contract_id,
    start_date_time: utc(cdr.start_date_time),
    end_date_time: utc(cdr.end_date_time),
    total_energy_kwh: decimalFromNumber(cdr.total_energy),
    total_idle_seconds: idleSeconds,
    charge_periods: periods.length ? periods : undefined,
    time_zone: country.timeZone,
    address: { street: location.address, city: location.city, postal_code: location.postal_code, country: country.alpha2 },
    evse_id: location.evse_id,
    connector_standard: location.connector_standard,
    connector_format: location.connector_format,
    power_type: location.connector_power_type,
    tariff_code: cdr.charging_periods.find((p) => p.tariff_id)?.tariff_id ?? (cdr.tariffs?.[0]?.id as string | undefined),
    auth_method: cdr.auth_method,
    auth_ref: cdr.authorization_reference,
    roaming_connection_id: roamingConnectionId,
    roaming_protocol: 'ocpi',
    invoice_reference_id: cdr.invoice_reference_id,
    currency: cdr.currency,
    total_roaming_amount_excl_vat: amount(cdr.total_cost, 'excl_vat'),
    total_roaming_amount_incl_vat: amount(cdr.total_cost, 'incl_vat'),
    total_roaming_flat_amount_excl_vat: amount(cdr.total_fixed_cost, 'excl_vat'),
    total_roaming_energy_amount_excl_vat: amount(cdr.total_energy_cost, 'excl_vat'),
    total_roaming_time_amount_excl_vat: amount(cdr.total_time_cost, 'excl_vat'),
    total_roaming_reservation_amount_excl_vat: amount(cdr.total_reservation_cost, 'excl_vat'),
    historical_tariff: cdr.tariffs?.[0],
    remark: cdr.remark,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return { body };
}
