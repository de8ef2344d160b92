import test from 'ava';
import { periodEnergyKwh, sessionEnergyKwh } from '../../../src/sessions/session-energy.ts';
import { senderOf, submissionOf } from '../../../src/sessions/session-submission.ts';

const period = (start: string, ...volumes: string[]) => ({ start_date_time: start, dimensions: volumes.map((volume) => ({ type: 'energy', volume })) });

test('a session\'s energy: total_energy_kwh when stated, else the sum over its charge periods', (t) => {
  const periods = [period('2026-03-01T10:00:00Z', '1.25', '0.000001'), period('2026-03-01T10:30:00Z', '3')];
  t.is(sessionEnergyKwh({ total_energy_kwh: '12.500', charge_periods: periods }), '12.50', 'the stated total wins');
  t.is(sessionEnergyKwh({ charge_periods: periods }), '4.250001');
  t.is(sessionEnergyKwh({ total_energy_kwh: null, charge_periods: [] }), '0.00');
  t.is(sessionEnergyKwh({}), undefined);
  t.is(sessionEnergyKwh({ total_energy_kwh: null, charge_periods: null }), undefined);
});

test('a charge period\'s energy is the sum of its dimension volumes, exact', (t) => {
  t.is(periodEnergyKwh(period('2026-03-01T10:00:00Z', '0.1', '0.2')), '0.300000');
});

test('a submission: its sender by endpoint, instants, energy, country in upper case, idle time 0 unless reported', (t) => {
  const reported = {
    session_id: 'S1', evco_id: 'NL-TNM-C00122045', cpo_id: 'NL*ABC', evse_uid: 'EVSE-7', start_date_time: '2026-03-01T11:00:00+01:00',
    end_date_time: '2026-03-01T12:00:00+01:00', time_zone: 'Europe/Amsterdam', address: { country: 'nl' }, charge_periods: [period('2026-03-01T10:00:00Z', '7.5')],
  };
  t.is(senderOf('charge_session', reported), 'NL*ABC');
  t.is(senderOf('cpo_charge_session', reported), 'EVSE-7');
  t.deepEqual(submissionOf('cpo_charge_session', reported, { raw: true }), {
    source: 'cpo_charge_session', sessionId: 'S1', sender: 'EVSE-7', cpoId: 'NL*ABC', evcoId: 'NL-TNM-C00122045',
    startAt: new Date('2026-03-01T10:00:00Z'), endAt: new Date('2026-03-01T11:00:00Z'), energyKwh: '7.50', idleSeconds: 0,
    timeZone: 'Europe/Amsterdam', country: 'NL', evseId: null, evseUid: 'EVSE-7', payload: { raw: true },
  });
  t.is(submissionOf('charge_session', { ...reported, charge_periods: undefined }, {}), null, 'no energy reported');
});
