// A credential limited to administrations submits charge sessions only of its own tokens (POST
// /charge-session) and EVSEs (POST /cpo-charge-session): another administration's is 400 not_found
// like an unknown one, and a session identity another administration's session holds is 400
// duplicate, without its status or content. Its own sessions stay idempotent before and after
// processing. (src/sessions/submission-access.ts)
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { cpoSessionBody, createLocatedEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let limited: Auth;
/** A credential limited to the other administration (theirs). */
let other: Auth;
let theirs: { evcoId: string; evseUid: string };
let mine: { evcoId: string; evseUid: string; adminId: string; subscriptionId: string };

test.before(async () => {
  app = await startTestApp();
  const [a, b] = [(await createAdministration(app)).id, (await createAdministration(app)).id];
  theirs = { evcoId: (await pricedSubscription(app, a)).evcoId, evseUid: (await createLocatedEvse(app, a)).evse_uid };
  const ours = await pricedSubscription(app, b);
  mine = { evcoId: ours.evcoId, evseUid: (await createLocatedEvse(app, b)).evse_uid, adminId: b, subscriptionId: ours.subscriptionId };
  limited = await app.credential({ role: 'admin', adminIds: [b] });
  other = await app.credential({ role: 'admin', adminIds: [a] });
});
test.after.always(async () => { await app?.close(); });

const submit = (path: string, body: unknown, auth: Auth = limited) => app.request('POST', `/main/v1${path}`, { body, auth });
const sessionsNamed = async (sessionId: string) =>
  (await app.request('GET', '/main/v1/msp-charge-session?page_size=1000')).body.items.filter((s: any) => s.session_id === sessionId);

test('a token or EVSE of another administration is not_found, like one that does not exist; nothing is stored', async (t) => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['/charge-session', sessionBody(theirs.evcoId, { session_id: 'THEIRS-1' }), '$.evco_id'],
    ['/charge-session', sessionBody('NLNOTHING000001', { session_id: 'THEIRS-2' }), '$.evco_id'],
    ['/cpo-charge-session', cpoSessionBody(theirs.evseUid, { session_id: 'THEIRS-3' }), '$.evse_uid'],
    ['/cpo-charge-session', cpoSessionBody('NO-SUCH-EVSE', { session_id: 'THEIRS-4' }), '$.evse_uid'],
  ];
  for (const [path, body, param] of cases) {
    const r = await submit(path, body);
    t.is(r.status, 400, JSON.stringify(r.body));
    t.like(r.body, { code: 'not_found', param });
    t.deepEqual(await sessionsNamed(body.session_id as string), [], 'nothing stored');
  }
  const unlimited = await submit('/charge-session', sessionBody('NLNOTHING000001', { session_id: 'THEIRS-5' }), app.admin);
  t.is(unlimited.status, 200, `a credential without a limit still submits a session of an unknown token (it drops out): ${JSON.stringify(unlimited.body)}`);
});

test('the identity of another administration\'s session is a duplicate: neither its status nor its content is told, and it does not change', async (t) => {
  const theirSession = await submitSession(app, sessionBody(theirs.evcoId, { session_id: 'SHARED-1' }));
  const before = await processed(app, theirSession.id);
  for (const evcoId of [mine.evcoId, theirs.evcoId]) {
    const r = await submit('/charge-session', sessionBody(evcoId, { session_id: 'SHARED-1' }));
    t.is(r.status, 400);
    t.is(r.body.code, evcoId === mine.evcoId ? 'duplicate' : 'not_found', JSON.stringify(r.body));
    t.notRegex(r.body.message, /priced|content|SHARED|NL|[0-9a-f]{8}-/, 'nothing of the session');
  }
  // Not processed yet (no administration): the session's token decides whose it is.
  const waiting = await app.request('POST', '/main/v1/charge-session', { body: sessionBody(theirs.evcoId, { session_id: 'SHARED-2', total_energy_kwh: '11' }) });
  const r = await submit('/charge-session', sessionBody(mine.evcoId, { session_id: 'SHARED-2' }));
  t.like(r.body, { code: 'duplicate', param: '$.session_id' });
  t.like(await processed(app, waiting.body.id), { total_energy_kwh: '11.00', token_evco_id: theirs.evcoId });
  t.deepEqual((await app.request('GET', `/main/v1/msp-charge-session/${theirSession.id}`)).body, before, 'unchanged');
});

test('its own sessions: stored, and the same session again is an idempotent duplicate before and after processing', async (t) => {
  const body = sessionBody(mine.evcoId, { session_id: 'MINE-1' });
  const first = await submit('/charge-session', body);
  t.is(first.status, 200, JSON.stringify(first.body));
  const again = await submit('/charge-session', body);
  t.like(again.body, { id: first.body.id, duplicate: true });
  t.like(await processed(app, first.body.id), { status: 'priced' });
  t.like((await submit('/charge-session', body)).body, { id: first.body.id, duplicate: true });
  const cpo = cpoSessionBody(mine.evseUid, { session_id: 'MINE-2' });
  const cpoFirst = await submit('/cpo-charge-session', cpo);
  t.is(cpoFirst.status, 200, JSON.stringify(cpoFirst.body));
  t.like((await submit('/cpo-charge-session', cpo)).body, { id: cpoFirst.body.id, duplicate: true });
});

test('the same identity sent by two administrations at once is stored once, for one of them: the other is 400 duplicate, without the session\'s id', async (t) => {
  // Both checks see the identity free; the statements then find it taken by the other's session (the
  // same statement or the next). It was answered 200 with the other's session id, its content replaced.
  const send = (evcoId: string, auth: Auth, id: string, energy: string, batch: boolean) => (batch
    ? app.request('POST', '/main/v1/charge-session-batch', { body: [sessionBody(evcoId, { session_id: id, total_energy_kwh: energy })], auth })
      .then((r) => ({ status: r.body.results?.[0]?.id ? 200 : 400, body: r.body.results?.[0] ?? r.body }))
    : submit('/charge-session', sessionBody(evcoId, { session_id: id, total_energy_kwh: energy }), auth));
  for (let round = 0; round < 8; round++) {
    const id = `AT-ONCE-${round}`;
    const batch = round >= 4;
    const [ours, their] = round % 2 === 0
      ? await Promise.all([send(mine.evcoId, limited, id, '10', batch), send(theirs.evcoId, other, id, '11', batch)])
      : (await Promise.all([send(theirs.evcoId, other, id, '11', batch), send(mine.evcoId, limited, id, '10', batch)])).reverse();
    const stored = [ours, their].filter((r) => r.status === 200);
    t.is(stored.length, 1, `round ${round}: ${JSON.stringify([ours.body, their.body])}`);
    const [winner, loser, token, energy] = ours.status === 200 ? [ours, their, mine.evcoId, '10.00'] : [their, ours, theirs.evcoId, '11.00'];
    t.like(loser.body, { code: 'duplicate', param: batch ? '$[0].session_id' : '$.session_id' }, `round ${round}`);
    t.false(JSON.stringify(loser.body).includes(winner.body.id), 'nothing of the other administration\'s session');
    t.like(await processed(app, winner.body.id), { token_evco_id: token, total_energy_kwh: energy }, 'stored with the content of the one it was answered to');
  }
});

test('a CPO session at its own EVSE naming another administration\'s token: processed on the CPO side only, nothing charged to that administration', async (t) => {
  const priced = async (id: string) => (await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${id}`)).body.items;
  const submitted = await submit('/cpo-charge-session', cpoSessionBody(mine.evseUid, { session_id: 'FOREIGN-TOKEN-1', evco_id: theirs.evcoId, total_energy_kwh: '40' }));
  t.is(submitted.status, 200, `accepted like a token that is not ours: ${JSON.stringify(submitted.body)}`);
  const settled = await settledCpoSession(app, submitted.body.id);
  t.like(settled, { status: 'processed' });
  t.deepEqual(await priced(submitted.body.id), [], 'no pricing result on the other administration\'s subscription');
  const session = (await app.request('GET', `/main/v1/msp-charge-session/${submitted.body.id}`, { auth: limited })).body;
  t.like(session, { customer_id: null, subscription_id: null });
  // The same session from a credential without a limit prices the driver's side (both sides are ours).
  const unlimited = await app.request('POST', '/main/v1/cpo-charge-session', { body: cpoSessionBody(mine.evseUid, { session_id: 'FOREIGN-TOKEN-2', evco_id: theirs.evcoId, total_energy_kwh: '40' }) });
  await settledCpoSession(app, unlimited.body.id);
  t.is((await priced(unlimited.body.id)).length, 1);
});

// Found by probing (2026-11-29): the access check looked the stored identities up by JavaScript's
// lower case, which differs from PostgreSQL's (citext) for the dotted capital I (U+0130).
test('another administration\'s identity differing only by the dotted capital I is a duplicate too', async (t) => {
  const theirSession = await submitSession(app, sessionBody(theirs.evcoId, { session_id: 'SHARED-I-1' }));
  await processed(app, theirSession.id);
  const r = await submit('/charge-session', sessionBody(mine.evcoId, { session_id: 'SHARED-\u0130-1' }));
  t.is(r.status, 400, JSON.stringify(r.body));
  t.is(r.body.code, 'duplicate');
  const batch = await submit('/charge-session-batch', [sessionBody(mine.evcoId, { session_id: 'SHARED-\u0130-1' })]);
  t.like(batch, { status: 200, body: { results: [{ code: 'duplicate' }] } });
});

// Found by probing (2026-11-29): the token check lower-cased evco_ids in JavaScript, while the
// pipeline finds a session's token by the database's comparison (citext), which folds the dotted
// capital I (U+0130) to i (JavaScript: i + U+0307): a session the pipeline prices on the caller's
// own token was refused 400 not_found.
test('an evco_id differing from its own token\'s only by the dotted capital I names that token, as the pipeline matches it; another administration\'s stays not_found', async (t) => {
  const dotted = (evcoId: string) => evcoId.replace('I', '\u0130');
  t.not(dotted(mine.evcoId), mine.evcoId, 'the factory\'s evco_ids have an I');
  const single = await submit('/charge-session', sessionBody(dotted(mine.evcoId), { session_id: 'DOTTED-TOKEN-1' }));
  t.is(single.status, 200, JSON.stringify(single.body));
  t.like(await processed(app, single.body.id), { status: 'priced', admin_id: mine.adminId, subscription_id: mine.subscriptionId });
  const batch = await submit('/charge-session-batch', [sessionBody(dotted(mine.evcoId), { session_id: 'DOTTED-TOKEN-2' })]);
  t.truthy(batch.body.results?.[0]?.id, JSON.stringify(batch.body));
  const foreign = await submit('/charge-session', sessionBody(dotted(theirs.evcoId), { session_id: 'DOTTED-TOKEN-3' }));
  t.like(foreign, { status: 400, body: { code: 'not_found', param: '$.evco_id' } });
  t.deepEqual(await sessionsNamed('DOTTED-TOKEN-3'), []);
});
