// OCPI 2.2.1 Tariff and the session facts the evaluator needs (numbers as they arrive in JSON).
export type DayOfWeek = 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY' | 'SUNDAY';
export type PriceComponentType = 'ENERGY' | 'FLAT' | 'PARKING_TIME' | 'TIME';
export type ReservationRestriction = 'RESERVATION' | 'RESERVATION_EXPIRES';

export interface PriceComponent {
  type: PriceComponentType;
  price: number;
  vat?: number | null;
  step_size: number;
}

export interface TariffRestrictions {
  start_time?: string;
  end_time?: string;
  start_date?: string;
  end_date?: string;
  min_kwh?: number;
  max_kwh?: number;
  min_current?: number;
  max_current?: number;
  min_power?: number;
  max_power?: number;
  min_duration?: number;
  max_duration?: number;
  day_of_week?: DayOfWeek[];
  reservation?: ReservationRestriction;
}

export interface TariffElement {
  price_components: PriceComponent[];
  restrictions?: TariffRestrictions | null;
}

export interface Price {
  excl_vat: number;
  incl_vat?: number | null;
}

export interface OcpiTariff {
  id?: string;
  currency: string;
  min_price?: Price | null;
  max_price?: Price | null;
  elements: TariffElement[];
  [key: string]: unknown;
}

export type CdrDimensionType =
  | 'CURRENT' | 'ENERGY' | 'ENERGY_EXPORT' | 'ENERGY_IMPORT' | 'MAX_CURRENT' | 'MIN_CURRENT' | 'MAX_POWER' | 'MIN_POWER'
  | 'PARKING_TIME' | 'POWER' | 'RESERVATION_TIME' | 'STATE_OF_CHARGE' | 'TIME';

export interface ChargingPeriod {
  start_date_time: string;
  dimensions: Array<{ type: CdrDimensionType | string; volume: number }>;
}

export interface OcpiSession {
  /** IANA zone of the location: restrictions are matched in its wall-clock time. */
  time_zone: string;
  start_date_time: string;
  end_date_time?: string;
  charging_periods: ChargingPeriod[];
  reservation?: { outcome?: 'USED' | 'EXPIRED' | string } | null;
  /**
   * TIME, PARKING_TIME and RESERVATION_TIME volumes are exact seconds rather than OCPI's hours: for
   * periods built from timestamps (src/session-processing/historical-tariff.ts), where 1/6 h as a
   * 6-decimal hour is 600.0012 s and a step_size would bill a step more.
   */
  time_in_seconds?: boolean;
}
