// Every OCPI endpoint taking a body, against bodies that are not a JSON object and DateTimes the
// calendar does not have: OCPI 2001 with HTTP 400 naming the member, never a 500, nothing stored.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { pricedSubscription } from '../helpers/session-factories.ts';
import type { CpoPeer } from './cpo-peer.ts';
import { cdr, nextId, session, tariff } from './fixtures.ts';
import { registeredCpo, sessionOfCdr } from './ocpi-app.ts';

let app: TestApp;
let cpo: CpoPeer;
let evcoId: string;
test.before(async () => {
  app = await startTestApp();
  const adminId = (await createAdministration(app)).id;
  ({ cpo } = await registeredCpo(app));
  evcoId = (await pricedSubscription(app, adminId)).evcoId;
});
test.after.always(async () => { await cpo?.close(); await app?.close(); });

const sessionUrl = (id: string) => `${app.url}/ocpi/2.2.1/emsp/sessions/NL/CPO/${id}`;
const tariffUrl = (id: string) => `${app.url}/ocpi/2.2.1/emsp/tariffs/NL/CPO/${id}`;

// Not an object: JSON null, an array, a number, a string, a boolean; and no body at all.
const NOT_OBJECTS: [string, unknown][] = [['null', null], ['an array', [{}]], ['a number', 1], ['a string', 'cdr'], ['a boolean', true], ['no body', undefined]];

test('a body that is not a JSON object is 2001 with HTTP 400 at every OCPI endpoint taking one', async (t) => {
  const running = session(evcoId);
  t.is((await cpo.call('PUT', sessionUrl(running.id), { body: running, bodySchema: 'session' })).body.status_code, 1000);
  const endpoints: [string, string][] = [
    ['POST', `${app.url}/ocpi/2.2.1/emsp/cdrs`],
    ['PUT', sessionUrl(nextId('SES'))],
    ['PATCH', sessionUrl(running.id)],
    ['PUT', tariffUrl(nextId('TAR'))],
    ['POST', `${app.url}/ocpi/2.2.1/emsp/commands/START_SESSION/${crypto.randomUUID()}`],
    ['PUT', `${app.url}/ocpi/2.2.1/credentials`],
  ];
  for (const [method, url] of endpoints) {
    for (const [name, body] of NOT_OBJECTS) {
      const r = await cpo.call(method, url, { body });
      t.is(r.status, 400, `${method} ${url} with ${name}: ${JSON.stringify(r.body)}`);
      t.is(r.body.status_code, 2001, `${method} ${url} with ${name}`);
      t.regex(r.body.status_message, /body must be a JSON object/, `${method} ${url} with ${name}`);
    }
  }
  // The peer is still registered and its Session as it was.
  const read = await cpo.call('GET', sessionUrl(running.id), { dataSchema: 'session' });
  t.deepEqual(read.body.data, running);
});

// DateTimes the calendar or the clock does not have, or that PostgreSQL cannot store.
const IMPOSSIBLE = [
  '2026-03-02T25:00:00Z', '2026-03-02T24:00:00Z', '2026-03-02T23:60:00Z', '2026-03-02T23:59:60Z', '2026-13-02T09:00:00Z', '2026-00-02T09:00:00Z',
  '2026-03-00T09:00:00Z', '2026-02-30T09:00:00Z', '2025-02-29T09:00:00', '2026-04-31T09:00:00Z', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z',
];

type Target = { name: string; send(value: string): Promise<{ status: number; body: any }>; stored(): Promise<boolean> };

/** Each OCPI object member that is a DateTime, as a pushed object with `value` there. */
function targets(): [string, Target][] {
  const cdrWith = (set: (body: ReturnType<typeof cdr>, value: string) => void): Target => {
    const pushed = cdr(evcoId);
    return {
      name: 'cdr',
      send: (value) => { const body = structuredClone(pushed); set(body, value); return cpo.call('POST', `${app.url}/ocpi/2.2.1/emsp/cdrs`, { body }); },
      stored: async () => (await sessionOfCdr(app, pushed.id)) !== undefined,
    };
  };
  const sessionWith = (member: string): Target => {
    const pushed = session(evcoId);
    return {
      name: 'session',
      send: (value) => cpo.call('PUT', sessionUrl(pushed.id), { body: { ...pushed, [member]: value } }),
      stored: async () => (await cpo.call('GET', sessionUrl(pushed.id))).status === 200,
    };
  };
  const tariffWith = (member: string): Target => {
    const pushed = tariff();
    return {
      name: 'tariff',
      send: (value) => cpo.call('PUT', tariffUrl(pushed.id), { body: { ...pushed, [member]: value } }),
      stored: async () => (await cpo.call('GET', tariffUrl(pushed.id))).status === 200,
    };
  };
  return [
    ['start_date_time', cdrWith((b, v) => { b.start_date_time = v; })],
    ['end_date_time', cdrWith((b, v) => { b.end_date_time = v; })],
    ['last_updated', cdrWith((b, v) => { b.last_updated = v; })],
    ['charging_periods/0/start_date_time', cdrWith((b, v) => { b.charging_periods[0].start_date_time = v; })],
    ['start_date_time', sessionWith('start_date_time')],
    ['end_date_time', sessionWith('end_date_time')],
    ['last_updated', sessionWith('last_updated')],
    ['last_updated', tariffWith('last_updated')],
    ['start_date_time', tariffWith('start_date_time')],
    ['end_date_time', tariffWith('end_date_time')],
  ];
}

test('an impossible DateTime in a CDR, Session or Tariff is 2001 with HTTP 400 naming the member; nothing is stored', async (t) => {
  for (const [member, target] of targets()) {
    for (const value of IMPOSSIBLE) {
      const r = await target.send(value);
      const what = `${target.name} ${member} ${value}`;
      t.is(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
      t.is(r.body.status_code, 2001, what);
      t.true(r.body.status_message.includes(member), `${what}: ${r.body.status_message}`);
    }
    t.false(await target.stored(), `${target.name} ${member}: nothing stored`);
  }
});

test('a Session PATCH with an impossible last_updated or end_date_time is 2001 naming it and leaves the Session as it was', async (t) => {
  const running = session(evcoId);
  t.is((await cpo.call('PUT', sessionUrl(running.id), { body: running, bodySchema: 'session' })).body.status_code, 1000);
  for (const member of ['last_updated', 'end_date_time']) {
    for (const value of IMPOSSIBLE) {
      const r = await cpo.call('PATCH', sessionUrl(running.id), { body: { last_updated: '2026-03-02T09:40:00Z', kwh: 9, [member]: value } });
      t.is(r.status, 400, `${member} ${value}: ${JSON.stringify(r.body)}`);
      t.is(r.body.status_code, 2001);
      t.true(r.body.status_message.includes(member), r.body.status_message);
    }
  }
  t.deepEqual((await cpo.call('GET', sessionUrl(running.id), { dataSchema: 'session' })).body.data, running);
});

test('real DateTimes are taken: a leap day, no offset (UTC), a fraction of up to 9 digits, +00:00', async (t) => {
  for (const value of ['2028-02-29T12:00:00Z', '2026-03-02T09:00:00', '2026-03-02T09:00:00.123456789Z', '2026-03-02T09:00:00+00:00', '2026-12-31T23:59:59.999Z']) {
    const pushed = tariff({ last_updated: value, start_date_time: value });
    const r = await cpo.call('PUT', tariffUrl(pushed.id), { body: pushed, bodySchema: 'tariff' });
    t.is(r.body.status_code, 1000, `${value}: ${JSON.stringify(r.body)}`);
    const running = session(evcoId, { start_date_time: value, last_updated: value });
    t.is((await cpo.call('PUT', sessionUrl(running.id), { body: running, bodySchema: 'session' })).body.status_code, 1000, value);
  }
});
