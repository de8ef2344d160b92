// OCPI 2.2.1 objects as a CPO sends them, for the tests (each checked against src/ocpi/schemas).
let n = 0;
export const nextId = (prefix: string) => `${prefix}${Date.now().toString(36)}${++n}`;

export function cdrToken(evcoId: string) {
  return { country_code: 'NL', party_id: 'MSP', uid: `UID${evcoId.replace(/\W/g, '').slice(-20)}`, type: 'RFID', contract_id: evcoId };
}

export function cdr(evcoId: string, overrides: Record<string, unknown> = {}) {
  // The period carries the CDR's energy: a total_energy other than its periods' is refused.
  const energy = typeof overrides.total_energy === 'number' ? overrides.total_energy : 10;
  return {
    country_code: 'NL',
    party_id: 'CPO',
    id: nextId('CDR'),
    start_date_time: '2026-03-02T09:00:00Z',
    end_date_time: '2026-03-02T10:00:00Z',
    session_id: nextId('SES'),
    cdr_token: cdrToken(evcoId),
    auth_method: 'WHITELIST',
    cdr_location: {
      id: 'LOC1', name: 'Station', address: 'Stationsplein 1', city: 'Utrecht', postal_code: '3511 ED', country: 'NLD',
      coordinates: { latitude: '52.089444', longitude: '5.110278' }, evse_uid: 'EVSE1', evse_id: 'NL*CPO*E1234', connector_id: '1',
      connector_standard: 'IEC_62196_T2', connector_format: 'SOCKET', connector_power_type: 'AC_3_PHASE',
    },
    currency: 'EUR',
    charging_periods: [{ start_date_time: '2026-03-02T09:00:00Z', dimensions: [{ type: 'ENERGY', volume: energy }] }],
    total_cost: { excl_vat: 4, incl_vat: 4.84 },
    total_energy: energy,
    total_time: 1,
    last_updated: '2026-03-02T10:05:00Z',
    ...overrides,
  };
}

export function session(evcoId: string, overrides: Record<string, unknown> = {}) {
  return {
    country_code: 'NL', party_id: 'CPO', id: nextId('SES'), start_date_time: '2026-03-02T09:00:00Z', kwh: 3.5, cdr_token: cdrToken(evcoId),
    auth_method: 'WHITELIST', location_id: 'LOC1', evse_uid: 'EVSE1', connector_id: '1', currency: 'EUR', status: 'ACTIVE',
    last_updated: '2026-03-02T09:20:00Z', ...overrides,
  };
}

export function tariff(overrides: Record<string, unknown> = {}) {
  return {
    country_code: 'NL', party_id: 'CPO', id: nextId('TAR'), currency: 'EUR',
    elements: [{ price_components: [{ type: 'ENERGY', price: 0.4, vat: 21, step_size: 1 }] }],
    last_updated: '2026-03-01T00:00:00Z', ...overrides,
  };
}
