// OCPI locations name countries by ISO 3166-1 alpha-3 and CDRs carry no time zone; the session
// pipeline wants alpha-2 and an IANA zone: the main zone of each country listed; a country not
// listed makes the CDR invalid (docs/decisions.md "OCPI").
const COUNTRIES: Record<string, [string, string]> = {
  AUT: ['AT', 'Europe/Vienna'], BEL: ['BE', 'Europe/Brussels'], BGR: ['BG', 'Europe/Sofia'], CHE: ['CH', 'Europe/Zurich'],
  CZE: ['CZ', 'Europe/Prague'], DEU: ['DE', 'Europe/Berlin'], DNK: ['DK', 'Europe/Copenhagen'], ESP: ['ES', 'Europe/Madrid'],
  EST: ['EE', 'Europe/Tallinn'], FIN: ['FI', 'Europe/Helsinki'], FRA: ['FR', 'Europe/Paris'], GBR: ['GB', 'Europe/London'],
  GRC: ['GR', 'Europe/Athens'], HRV: ['HR', 'Europe/Zagreb'], HUN: ['HU', 'Europe/Budapest'], IRL: ['IE', 'Europe/Dublin'],
  ITA: ['IT', 'Europe/Rome'], LIE: ['LI', 'Europe/Vaduz'], LTU: ['LT', 'Europe/Vilnius'], LUX: ['LU', 'Europe/Luxembourg'],
  LVA: ['LV', 'Europe/Riga'], NLD: ['NL', 'Europe/Amsterdam'], NOR: ['NO', 'Europe/Oslo'], POL: ['PL', 'Europe/Warsaw'],
  PRT: ['PT', 'Europe/Lisbon'], ROU: ['RO', 'Europe/Bucharest'], SVK: ['SK', 'Europe/Bratislava'], SVN: ['SI', 'Europe/Ljubljana'],
  SWE: ['SE', 'Europe/Stockholm'],
};

/** Alpha-2 and time zone of an alpha-3 country; null when the country is not known here. */
export function countryOf(alpha3: string): { alpha2: string; timeZone: string } | null {
  const found = COUNTRIES[alpha3.toUpperCase()];
  return found ? { alpha2: found[0], timeZone: found[1] } : null;
}
