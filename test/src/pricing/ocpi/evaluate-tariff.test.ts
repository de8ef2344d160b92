import test from 'ava';
import { evaluateOcpiTariff } from '../../../../src/pricing/ocpi/evaluate-tariff.ts';
import { withinClock } from '../../../../src/pricing/ocpi/restrictions.ts';
import type { OcpiSession, OcpiTariff, TariffElement } from '../../../../src/pricing/ocpi/tariff.ts';

const tariff = (elements: TariffElement[], extra: Partial<OcpiTariff> = {}): OcpiTariff => ({ currency: 'EUR', elements, ...extra });
const period = (start: string, dims: Record<string, number>) => ({
  start_date_time: start, dimensions: Object.entries(dims).map(([type, volume]) => ({ type, volume })),
});
const session = (periods: OcpiSession['charging_periods'], timeZone = 'Europe/Amsterdam'): OcpiSession => ({
  time_zone: timeZone, start_date_time: periods[0].start_date_time, charging_periods: periods,
});
const morningTime: TariffElement[] = [
  { price_components: [{ type: 'TIME', price: 6, step_size: 1 }], restrictions: { start_time: '08:00', end_time: '09:00' } },
  { price_components: [{ type: 'TIME', price: 1, step_size: 1 }] },
];

test('time restrictions use local wall-clock time across the spring DST change', (t) => {
  // 07:30Z is 08:30 CET on Saturday 2026-03-28 but 09:30 CEST on Sunday 2026-03-29.
  const before = evaluateOcpiTariff(tariff(morningTime), session([period('2026-03-28T07:30:00Z', { TIME: 0.5 })]));
  const after = evaluateOcpiTariff(tariff(morningTime), session([period('2026-03-29T07:30:00Z', { TIME: 0.5 })]));
  const afterEarlier = evaluateOcpiTariff(tariff(morningTime), session([period('2026-03-29T06:30:00Z', { TIME: 0.5 })]));
  t.is(before.totalCost.exclVat, '3.00');
  t.is(after.totalCost.exclVat, '0.50');
  t.is(afterEarlier.totalCost.exclVat, '3.00');
  t.like(before.lines[0], { elementIndex: 0, componentIndex: 0, dimension: 'TIME' });
  t.like(after.lines[0], { elementIndex: 1, componentIndex: 0 });
});

test('time restrictions at the autumn DST change and in UTC differ as expected', (t) => {
  // 2026-10-25: 06:30Z is 07:30 CET (after fall-back); 07:30Z is 08:30 CET.
  const cet = evaluateOcpiTariff(tariff(morningTime), session([period('2026-10-25T07:30:00Z', { TIME: 1 })]));
  const utc = evaluateOcpiTariff(tariff(morningTime), session([period('2026-10-25T07:30:00Z', { TIME: 1 })], 'UTC'));
  t.is(cet.totalCost.exclVat, '6.00');
  t.is(utc.totalCost.exclVat, '1.00');
});

test('start_time inclusive, end_time exclusive, wrapping past midnight', (t) => {
  t.true(withinClock(22 * 60, '22:00', '06:00'));
  t.true(withinClock(5 * 60 + 59, '22:00', '06:00'));
  t.false(withinClock(6 * 60, '22:00', '06:00'));
  t.true(withinClock(8 * 60, '08:00', '09:00'));
  t.false(withinClock(9 * 60, '08:00', '09:00'));
});

test('day_of_week and end_date (exclusive) use the local date', (t) => {
  const elements: TariffElement[] = [
    { price_components: [{ type: 'ENERGY', price: 1, step_size: 1 }], restrictions: { day_of_week: ['SUNDAY'], end_date: '2026-03-30' } },
    { price_components: [{ type: 'ENERGY', price: 0.1, step_size: 1 }] },
  ];
  // 2026-03-28T23:30Z is Sunday 00:30 local.
  t.is(evaluateOcpiTariff(tariff(elements), session([period('2026-03-28T23:30:00Z', { ENERGY: 3 })])).totalCost.exclVat, '3.00');
  t.is(evaluateOcpiTariff(tariff(elements), session([period('2026-03-28T22:30:00Z', { ENERGY: 3 })])).totalCost.exclVat, '0.30');
  t.is(evaluateOcpiTariff(tariff(elements), session([period('2026-04-04T23:30:00Z', { ENERGY: 3 })])).totalCost.exclVat, '0.30');
});

test('energy step size rounds the session total once, on the last period', (t) => {
  const elements: TariffElement[] = [
    { price_components: [{ type: 'ENERGY', price: 0.2, step_size: 500 }], restrictions: { start_time: '00:00', end_time: '17:00' } },
    { price_components: [{ type: 'ENERGY', price: 0.27, step_size: 500 }] },
  ];
  const r = evaluateOcpiTariff(tariff(elements), session([
    period('2026-06-01T14:00:00Z', { ENERGY: 4.3 }), period('2026-06-01T15:00:00Z', { ENERGY: 1.1 }),
  ]));
  t.deepEqual(r.lines.map((l) => [l.elementIndex, l.volume, l.billedVolume, l.amountExclVat]), [[0, '4.30', '4.30', '0.86'], [1, '1.10', '1.20', '0.324']]);
  t.deepEqual(r.totalCost, { exclVat: '1.18', inclVat: '1.18' });
  t.deepEqual(r.totalCostUnrounded, { exclVat: '1.184', inclVat: '1.184' });
});

test('when parking follows charging only parking time is rounded', (t) => {
  const elements: TariffElement[] = [{ price_components: [
    { type: 'TIME', price: 1, step_size: 600 }, { type: 'PARKING_TIME', price: 2, step_size: 600 },
  ] }];
  const r = evaluateOcpiTariff(tariff(elements), session([
    period('2026-06-01T10:00:00Z', { TIME: 0.35 }), period('2026-06-01T10:21:00Z', { PARKING_TIME: 16 / 60 }),
  ]));
  const billed = Object.fromEntries(r.lines.map((l) => [l.dimension, l.billedVolume]));
  t.is(billed.TIME, '1260.00');
  t.is(billed.PARKING_TIME, '1200.00');
});

// Found by probing: 1/6 h as a 6-decimal hour (0.166667) is 600.0012 s, which a 600 s step billed as two.
test('time_in_seconds reads TIME and PARKING_TIME as exact seconds, so a step that fits is billed once', (t) => {
  const elements: TariffElement[] = [{ price_components: [{ type: 'TIME', price: 6, step_size: 600 }, { type: 'PARKING_TIME', price: 6, step_size: 300 }] }];
  const periods = [period('2026-06-01T10:00:00Z', { TIME: 600 }), period('2026-06-01T10:10:00Z', { PARKING_TIME: 600 })];
  const r = evaluateOcpiTariff(tariff(elements), { ...session(periods), time_in_seconds: true });
  t.deepEqual(r.lines.map((l) => [l.dimension, l.volume, l.billedVolume, l.amountExclVat]),
    [['TIME', '600.00', '600.00', '1.00'], ['PARKING_TIME', '600.00', '600.00', '1.00']]);
});

test('FLAT is charged once per session, by the first period in which an element has one', (t) => {
  const elements: TariffElement[] = [
    { price_components: [{ type: 'FLAT', price: 1, vat: 21, step_size: 1 }], restrictions: { start_time: '10:00', end_time: '11:00' } },
    { price_components: [{ type: 'FLAT', price: 5, vat: 21, step_size: 1 }, { type: 'ENERGY', price: 0, step_size: 1 }] },
  ];
  // 07:00Z = 09:00 CEST (only element 1 matches), 08:00Z = 10:00 CEST (element 0 would): no second FLAT.
  const r = evaluateOcpiTariff(tariff(elements), session([
    period('2026-06-01T07:00:00Z', { ENERGY: 1 }), period('2026-06-01T08:00:00Z', { ENERGY: 1 }),
  ]));
  const flats = r.lines.filter((l) => l.dimension === 'FLAT');
  t.is(flats.length, 1);
  t.like(flats[0], { elementIndex: 1, billedVolume: '1.00', price: '5.00', vatPercent: '21.00', amountInclVat: '6.05' });
});

test('min_price and max_price clamp the excl. and incl. VAT totals', (t) => {
  const elements: TariffElement[] = [{ price_components: [{ type: 'ENERGY', price: 0.25, vat: 10, step_size: 1 }] }];
  const bounds = { min_price: { excl_vat: 0.5, incl_vat: 0.55 }, max_price: { excl_vat: 10, incl_vat: 11 } };
  const low = evaluateOcpiTariff(tariff(elements, bounds), session([period('2026-06-01T09:00:00Z', { ENERGY: 1.2 })]));
  const mid = evaluateOcpiTariff(tariff(elements, bounds), session([period('2026-06-01T09:00:00Z', { ENERGY: 20 })]));
  const high = evaluateOcpiTariff(tariff(elements, bounds), session([period('2026-06-01T09:00:00Z', { ENERGY: 50 })]));
  t.deepEqual(low.totalCost, { exclVat: '0.50', inclVat: '0.55' });
  t.deepEqual(mid.totalCost, { exclVat: '5.00', inclVat: '5.50' });
  t.deepEqual(high.totalCost, { exclVat: '10.00', inclVat: '11.00' });
  t.is(low.lines[0].amountExclVat, '0.30');
});

test('JSON number prices are read as decimal text, not float products', (t) => {
  const elements: TariffElement[] = [{ price_components: [{ type: 'ENERGY', price: 0.1, vat: 20, step_size: 1 }] }];
  const r = evaluateOcpiTariff(tariff(elements), session([period('2026-06-01T09:00:00Z', { ENERGY: 0.3 })]));
  t.like(r.lines[0], { amountExclVat: '0.03', vatAmountUnrounded: '0.006', amountInclVat: '0.036' });
});

test('a dimension no element prices is free and explained', (t) => {
  const elements: TariffElement[] = [{ price_components: [{ type: 'ENERGY', price: 0.3, step_size: 1 }], restrictions: { max_kwh: 10 } }];
  const r = evaluateOcpiTariff(tariff(elements), session([
    period('2026-06-01T09:00:00Z', { ENERGY: 10 }), period('2026-06-01T10:00:00Z', { ENERGY: 5 }),
  ]));
  t.is(r.totalCost.exclVat, '3.00');
  t.true(r.explanation.some((e) => e.includes('no element prices ENERGY')));
});
