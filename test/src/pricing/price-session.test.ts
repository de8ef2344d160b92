import test from 'ava';
import { priceSession, type PricingSession } from '../../../src/pricing/price-session.ts';
import { parseDefinition } from '../../../src/pricing/rate-plan-definition.ts';

const version = (definition: unknown) => ({ ...parseDefinition(definition), id: 'v1', validFrom: new Date('2026-01-01T00:00:00Z') });
const VAT = { percent: '21', kind: 'standard' as const, country: 'NL' };
const session = (fields: Partial<PricingSession> = {}): PricingSession => ({
  start: new Date('2026-03-02T10:00:00Z'), end: new Date('2026-03-02T11:00:00Z'), energyKwh: '10', timeZone: 'Europe/Amsterdam', country: 'NL', ...fields,
});

test('lines round once, totals are sums of the rounded lines, VAT kept unrounded', (t) => {
  const result = priceSession({ version: version({ rates: { energy: { price: '0.333333' } } }), session: session(), vat: VAT });
  const [energy] = result.subtotals;
  t.like(energy, {
    kind: 'energy', volume: '10.00', billed_volume: '10.00', rate: '0.333333', rate_unit: 'kWh',
    amount_excl_vat_unrounded: '3.333330', amount_excl_vat: '3.33', vat_amount_unrounded: '0.699999', amount_incl_vat: '4.03', vat_amount: '0.70',
  });
  t.is(result.total_excl_vat, '3.33');
  t.is(result.total_incl_vat, '4.03');
  t.is(result.total_vat, '0.70');
  t.deepEqual(result.rule, { name: null, index: null });
});

test('step sizes round volumes up; time excludes parking; flat is per session', (t) => {
  const result = priceSession({
    version: version({ rates: { energy: { price: '0.30', step_size: '0.5' }, time: { price: '0.10', step_size: '15' }, parking_time: { price: '0.05' }, flat: { price: '1' } } }),
    session: session({ energyKwh: '10.2', end: new Date('2026-03-02T11:01:00Z'), parkingMinutes: '20' }),
    vat: VAT,
  });
  const byKind = Object.fromEntries(result.subtotals.map((s) => [s.kind, s]));
  t.like(byKind.energy, { volume: '10.20', billed_volume: '10.50', amount_excl_vat: '3.15' });
  t.like(byKind.time, { volume: '41.00', billed_volume: '45.00', amount_excl_vat: '4.50' });
  t.like(byKind.parking_time, { volume: '20.00', billed_volume: '20.00', amount_excl_vat: '1.00' });
  t.like(byKind.flat, { volume: '1.00', amount_excl_vat: '1.00' });
  t.is(result.total_excl_vat, '9.65');
});

test('half away from zero at the cent', (t) => {
  const result = priceSession({ version: version({ rates: { energy: { price: '0.125' } } }), session: session({ energyKwh: '1' }), vat: { ...VAT, percent: '0' } });
  t.is(result.subtotals[0].amount_excl_vat, '0.13');
});

test('min and max price add an adjustment line', (t) => {
  const low = priceSession({ version: version({ rates: { energy: { price: '0.10' }, min_price: '2.5', max_price: '5' } }), session: session({ energyKwh: '3' }), vat: VAT });
  t.deepEqual(low.subtotals.map((s) => s.kind), ['energy', 'min_price_adjustment']);
  t.like(low.subtotals[1], { amount_excl_vat: '2.20', amount_incl_vat: '2.66' });
  t.is(low.total_excl_vat, '2.50');
  t.is(low.total_incl_vat, '3.02');
  const high = priceSession({ version: version({ rates: { energy: { price: '1' }, max_price: '5' } }), session: session({ energyKwh: '7' }), vat: VAT });
  t.like(high.subtotals[1], { kind: 'max_price_adjustment', amount_excl_vat: '-2.00', amount_incl_vat: '-2.42' });
  t.is(high.total_excl_vat, '5.00');
  t.is(high.total_incl_vat, '6.05');
});

test('first matching rule wins; rule rates override per component', (t) => {
  const definition = version({
    rates: { energy: { price: '0.30' }, flat: { price: '1' } },
    rules: [
      { name: 'CPO X DC', match: { cpo_party_ids: ['NL*X'], current_type: 'DC' }, rates: { energy: { price: '0.70' } } },
      { name: 'DC', match: { current_type: 'DC' }, rates: { energy: { price: '0.50' } } },
      { name: 'Big', match: { min_energy_kwh: '20', min_power_kw: '11', max_power_kw: '22' }, rates: { flat: { price: '0' } } },
    ],
  });
  const specific = priceSession({ version: definition, session: session({ cpoPartyId: 'nl*x', currentType: 'DC' }), vat: VAT });
  t.deepEqual(specific.rule, { name: 'CPO X DC', index: 0 });
  t.is(specific.subtotals[0].rate, '0.70');
  t.is(specific.subtotals[1].rate, '1.00');
  const generic = priceSession({ version: definition, session: session({ cpoPartyId: 'NL*Y', currentType: 'DC' }), vat: VAT });
  t.is(generic.rule.name, 'DC');
  const big = priceSession({ version: definition, session: session({ energyKwh: '20', powerKw: '11' }), vat: VAT });
  t.is(big.rule.name, 'Big');
  const tooFast = priceSession({ version: definition, session: session({ energyKwh: '20', powerKw: '22' }), vat: VAT });
  t.is(tooFast.rule.name, null, 'ranges are [min, max)');
  const noPower = priceSession({ version: definition, session: session({ energyKwh: '20' }), vat: VAT });
  t.is(noPower.rule.name, null, 'a range on an unknown value does not match');
});

test('local time: DST jump in Europe/Amsterdam, windows wrapping midnight, weekdays and dates', (t) => {
  const definition = version({
    rates: { energy: { price: '0.30' } },
    rules: [
      { name: 'Early', match: { time_of_day: { from: '01:00', until: '03:00' } }, rates: { energy: { price: '0.10' } } },
      { name: 'Night', match: { time_of_day: { from: '22:00', until: '01:00' } }, rates: { energy: { price: '0.20' } } },
      { name: 'Sunday', match: { days_of_week: [7], date_from: '2026-03-29', date_until: '2026-03-30' }, rates: { energy: { price: '0.40' } } },
    ],
  });
  const at = (iso: string, end?: string) => priceSession({ version: definition, session: session({ start: new Date(iso), end: new Date(end ?? iso) }), vat: VAT });
  t.is(at('2026-03-29T00:59:00Z').rule.name, 'Early', '01:59 CET');
  t.is(at('2026-03-29T01:00:00Z').rule.name, 'Sunday', '03:00 CEST: the hour 02:00–03:00 does not exist');
  t.is(at('2026-03-28T21:00:00Z').rule.name, 'Night', '22:00 CET Saturday');
  t.is(at('2026-03-28T23:59:00Z').rule.name, 'Night', '00:59 CET Sunday, wrapping midnight');
  t.is(at('2026-03-29T22:00:00Z').rule.name, 'Night', '00:00 CEST Monday');
  t.is(at('2026-03-29T18:00:00Z').rule.name, 'Sunday', '20:00 CEST Sunday');
  t.is(at('2026-03-30T10:00:00Z').rule.name, null, '12:00 CEST Monday');
  t.is(at('2026-04-05T10:00:00Z').rule.name, null, 'another Sunday, outside the date window');
  const overJump = priceSession({ version: version({ rates: { time: { price: '1' } } }), session: session({ start: new Date('2026-03-29T00:30:00+01:00'), end: new Date('2026-03-29T03:30:00+02:00') }), vat: VAT });
  t.is(overJump.subtotals[0].volume, '120.00', 'durations are measured between instants, not wall clocks');
});
