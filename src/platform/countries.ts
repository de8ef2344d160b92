// ISO 3166-1 alpha-2: the 249 officially assigned codes (as tzdata's iso3166.tab lists them), the
// one list every country the service takes is checked against (shared decisions "Running the
// service": `XX` is 400 at its param). User-assigned codes (AA, QM..QZ, XA..XZ, ZZ; Kosovo's XK),
// exceptionally or transitionally reserved ones (EU, UK, ...) are not countries here.
import { InvalidInputError } from './errors.ts';
import type { FieldPath } from './field-path.ts';

export const COUNTRY_CODES: readonly string[] = Object.freeze(`
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW
`.trim().split(/\s+/));

const ASSIGNED = new Set(COUNTRY_CODES);

/** An officially assigned ISO 3166-1 alpha-2 code, in any casing (`nl` is NL). */
export function isCountryCode(value: string): boolean {
  return value.length === 2 && ASSIGNED.has(value.toUpperCase());
}

/**
 * A VAT identifier starts with the code of the country that issued it, in upper case (EN 16931
 * BR-CO-09: ISO 3166-1 alpha-2, Greece's `EL` too): `NL123456789B01`, not `123456789B01`.
 */
export function hasVatCountryPrefix(vatNumber: string): boolean {
  const prefix = vatNumber.slice(0, 2);
  return prefix === 'EL' || (/^[A-Z]{2}$/.test(prefix) && ASSIGNED.has(prefix));
}

/** 400 `invalid_input` at `path` when a VAT number given does not start with its issuing country's code (BR-CO-09); null and absent pass. */
export function refuseUnprefixedVatNumber(vatNumber: string | null | undefined, path: FieldPath): void {
  if (vatNumber && !hasVatCountryPrefix(vatNumber)) {
    throw new InvalidInputError(`${path.join('.')} must start with the code of its issuing country, e.g. NL123456789B01 (EN 16931 BR-CO-09)`, { path });
  }
}
