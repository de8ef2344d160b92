// The subtotals of the benchmarks' stored priced sessions, in SQL over a `kwh` column: an energy line
// at 0.45/kWh and a 0.35 session fee, both at 21 % NL VAT.
export const SUBTOTALS_SQL = `jsonb_build_array(jsonb_build_object('kind', 'energy', 'volume', kwh::text, 'billed_volume', kwh::text, 'rate', '0.45',
  'rate_unit', 'kWh', 'rate_label', 'Energy', 'amount_excl_vat', round(kwh * 0.45, 2)::text, 'amount_excl_vat_unrounded', (kwh * 0.45)::text,
  'vat_kind', 'standard', 'vat_percent', '21.00', 'vat_country', 'NL', 'vat_amount_unrounded', (round(kwh * 0.45, 2) * 0.21)::text),
  jsonb_build_object('kind', 'flat', 'volume', '1', 'billed_volume', '1', 'rate', '0.35', 'rate_unit', 'session', 'rate_label', 'Session fee',
  'amount_excl_vat', '0.35', 'amount_excl_vat_unrounded', '0.35', 'vat_kind', 'standard', 'vat_percent', '21.00', 'vat_country', 'NL',
  'vat_amount_unrounded', '0.0735'))`;
