// EVSE IDs ("NL*ABC*E12345"): country code, operator code, then an identifier; the '*'
// separators are optional, so comparisons use the form without separators, upper case.
export function normalizeEvseId(value: string): string {
  return value.replace(/[*\s-]/g, '').toUpperCase();
}
