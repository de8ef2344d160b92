// GET /msp-charge-session-priced as an export reads it: pages by link_next to the end, each result
// with every member as the result and its session stored through the ORM give it (the list reads
// only the session columns the CPO's session id comes from), and a credential limited to
// administrations pages through its own results only.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createLocatedEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { ChargeSession } from '../../../src/sessions/charge-session.entity.ts';
import { pricingResultData } from '../../../src/sessions/charge-session.queries.ts';
import { PricingResult } from '../../../src/sessions/pricing-result.entity.ts';
import { serializePricingResult } from '../../../rest/sessions/session-serializers.ts';

let app: TestApp;
let ours: string;
let theirs: string;
/** The sessions of each administration, and what their bodies name as cpo_session_id. */
const sessions: Record<string, { id: string; expectedCpoSessionId: string; get: string }[]> = {};

const api = (path: string) => `/main/v1${path}`;

async function priced(adminId: string, body: Record<string, unknown>, expectedCpoSessionId: string, path = api('/charge-session')) {
  const stored = await submitSession(app, body, path);
  const session = await processed(app, stored.id);
  if (session.status !== 'priced') throw new Error(`not priced: ${JSON.stringify(session)}`);
  const get = api(`/${path.endsWith('/cpo-charge-session') ? 'cpo' : 'msp'}-charge-session/${stored.id}`);
  (sessions[adminId] ??= []).push({ id: stored.id, expectedCpoSessionId, get });
}

test.before(async () => {
  app = await startTestApp();
  ours = (await createAdministration(app)).id;
  theirs = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, ours, { credit: '7.50' });
  const named = sessionBody(sub.evcoId, { cpo_session_id: 'CPO-NAMED-1' });
  await priced(ours, named, 'CPO-NAMED-1');
  const empty = sessionBody(sub.evcoId, { cpo_session_id: '' });
  await priced(ours, empty, empty.session_id);
  const unnamed = sessionBody(sub.evcoId);
  await priced(ours, unnamed, unnamed.session_id);
  // A CPO session of our driver is priced too; cpo_session_id is no field of its endpoint (kept in the body only).
  const evse = await createLocatedEvse(app, ours);
  const { cpo_id: _, ...cpo } = sessionBody(sub.evcoId, { evse_uid: evse.evse_uid, cpo_session_id: 'NOT-A-FIELD-HERE' });
  await priced(ours, cpo, cpo.session_id as string, api('/cpo-charge-session'));
  const other = await pricedSubscription(app, theirs);
  for (let i = 0; i < 2; i++) {
    const body = sessionBody(other.evcoId, { cpo_session_id: `THEIRS-${i}` });
    await priced(theirs, body, `THEIRS-${i}`);
  }
});
test.after.always(async () => { await app?.close(); });

/** Every item of the list by link_next, checking the envelope on the way; with the number of pages. */
async function pageThrough(t: any, first: string, auth = app.admin) {
  const items: any[] = [];
  let pages = 0;
  for (let path: string | undefined = first; path; pages++) {
    const r: { status: number; body: any; headers: Headers } = await app.request('GET', path, { auth });
    t.is(r.status, 200, JSON.stringify(r.body));
    t.is(r.body.page_size, 2);
    t.true(r.body.items.length <= 2);
    t.is(r.headers.get('link'), r.body.link_next === undefined ? null : `<${r.body.link_next}>; rel="next"`);
    items.push(...r.body.items);
    path = r.body.link_next;
  }
  return { items, pages };
}

/** A result as the ORM loads it and its session, serialized: every member, read another way than the list's. */
async function loaded(id: string) {
  const em = scopedEm(app.orm);
  const result = await em.findOneOrFail(PricingResult, { id });
  const session = await em.findOneOrFail(ChargeSession, { id: result.session.id });
  return serializePricingResult(pricingResultData(result, session));
}

test('an export pages through every result by link_next, each with the members the result and its session hold', async (t) => {
  const { items, pages } = await pageThrough(t, api('/msp-charge-session-priced?page_size=2'));
  t.is(items.length, 6);
  t.is(pages, 3);
  t.deepEqual(items.map((i) => i.id), items.map((i) => i.id).sort(), 'in order of creation (by id)');
  const all = [...sessions[ours], ...sessions[theirs]];
  t.deepEqual(items.map((i) => i.charge_session_id).sort(), all.map((s) => s.id).sort());
  for (const item of items) {
    t.deepEqual(item, await loaded(item.id));
    const session = all.find((s) => s.id === item.charge_session_id)!;
    t.is(item.cpo_session_id, session.expectedCpoSessionId);
    t.is(item.cpo_session_id, (await app.request('GET', session.get)).body.cpo_session_id, 'as the session shows it');
  }
  t.true(items.some((i) => i.monetary_credit_used !== '0.00'), 'credit used shows as a decimal');
});

test('a credential limited to an administration pages through its own results only', async (t) => {
  const limited = await app.credential({ adminIds: [ours] });
  const { items } = await pageThrough(t, api('/msp-charge-session-priced?page_size=2'), limited);
  t.deepEqual(items.map((i) => i.charge_session_id).sort(), sessions[ours].map((s) => s.id).sort());
  t.true(items.every((i) => i.admin_id === ours));

  const everything = (await pageThrough(t, api('/msp-charge-session-priced?page_size=2'))).items;
  const foreign = everything.find((i) => i.admin_id === theirs)!;
  const after = await app.request('GET', api(`/msp-charge-session-priced?page_size=2&after=${foreign.id}`), { auth: limited });
  t.like(after.body, { code: 'not_found', query_param: 'after' });
  const ofSession = await app.request('GET', api(`/msp-charge-session-priced?charge_session_id=${foreign.charge_session_id}`), { auth: limited });
  t.deepEqual(ofSession.body.items, []);
  t.is((await app.request('GET', api(`/msp-charge-session-priced/${foreign.id}`), { auth: limited })).status, 400);

  const both = await app.credential({ adminIds: [ours, theirs] });
  t.deepEqual((await pageThrough(t, api('/msp-charge-session-priced?page_size=2'), both)).items, everything);
});
