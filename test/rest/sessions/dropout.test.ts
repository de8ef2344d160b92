import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken, insertTokenLink } from '../../helpers/factories.ts';
import { createRatePlan, pricedSubscription, SIMPLE_RATES, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
let priced: Awaited<ReturnType<typeof pricedSubscription>>;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  priced = await pricedSubscription(app, adminId);
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

async function dropout(body: Record<string, unknown>) {
  const stored = await submitSession(app, body);
  const session = await processed(app, stored.id);
  t_assertDropout(session);
  const dropoutCase = await app.request('GET', api(`/msp-dropout-case/${session.dropout_case_id}`));
  return { session, dropoutCase: dropoutCase.body };
}
function t_assertDropout(session: { status: string }) {
  if (session.status !== 'dropout') throw new Error(`expected a drop-out: ${JSON.stringify(session)}`);
}

test.serial('each validity check drops a session out with its reason', async (t) => {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const cases: [Record<string, unknown>, string][] = [
    [{ start_date_time: '2026-03-02T11:00:00+01:00', end_date_time: '2026-03-02T11:00:00+01:00' }, 'validity_start_before_end'],
    [{ total_energy_kwh: '5000' }, 'validity_plausible_energy'],
    [{ start_date_time: '2026-03-02T10:00:00+01:00', end_date_time: '2026-03-02T10:01:00+01:00', total_energy_kwh: '50' }, 'validity_plausible_energy'],
    // Under 1.8 s (hours rounded to 6 decimals were 0: an infinite average failed every processing batch).
    [{ start_date_time: '2026-03-02T10:00:00.9999996+01:00', end_date_time: '2026-03-02T10:00:01+01:00', total_energy_kwh: '10' }, 'validity_plausible_energy'],
    [{ start_date_time: iso(now + 3_600_000), end_date_time: iso(now + 7_200_000) }, 'validity_end_in_past'],
    [{ start_date_time: '2024-01-01T10:00:00Z', end_date_time: '2024-01-01T11:00:00Z' }, 'validity_not_too_old'],
  ];
  for (const [overrides, reason] of cases) {
    const { session, dropoutCase } = await dropout(sessionBody(priced.evcoId, overrides));
    t.is(session.dropout_reason, reason, JSON.stringify(overrides));
    t.is(dropoutCase.reason, reason);
    t.is(dropoutCase.status, 'open');
    t.truthy(session.dropout_message);
  }
});

test('sessions failing for the same reason share a case; an unknown token is priced after the fix and a retry', async (t) => {
  const evco = `NLUNK${String(Date.now()).slice(-9)}`;
  const first = await dropout(sessionBody(evco));
  const second = await dropout(sessionBody(evco));
  t.is(first.session.dropout_reason, 'unknown_token');
  t.is(second.session.dropout_case_id, first.session.dropout_case_id);
  const dropoutCase = (await app.request('GET', api(`/msp-dropout-case/${first.session.dropout_case_id}`))).body;
  t.is(dropoutCase.session_count, 2);
  t.is(dropoutCase.admin_id, null, 'an unresolved token belongs to no administration yet');
  const members = await app.request('GET', api(`/msp-charge-session?dropout_case_id=${dropoutCase.id}`));
  t.deepEqual(members.body.items.map((s: { id: string }) => s.id), [first.session.id, second.session.id]);

  const token = await insertToken(app, adminId, { evcoId: evco });
  await insertTokenLink(app, adminId, priced.subscriptionId, token.id, { validFrom: new Date('2026-01-01T00:00:00Z') });
  const retry = await app.request('POST', api(`/msp-dropout-case/${dropoutCase.id}/reprocess`), { body: { instruction: 'retry' } });
  t.is(retry.status, 200, JSON.stringify(retry.body));
  t.like(retry.body, { status: 'resolved', resolution: 'retry' });
  for (const id of [first.session.id, second.session.id]) {
    const session = await processed(app, id);
    t.is(session.status, 'priced');
    t.is(session.dropout_case_id, null);
    t.is((await pricingResults(app, id))[0].version, 1);
  }
  const kept = await app.request('GET', api(`/msp-dropout-case?status=resolved`));
  t.true(kept.body.items.some((c: { id: string }) => c.id === dropoutCase.id), 'resolved cases are kept');
  const again = await app.request('POST', api(`/msp-dropout-case/${dropoutCase.id}/reprocess`), { body: { instruction: 'retry' } });
  t.is(again.body.code, 'dropout_case_resolved');
});

test('bypassing a named check prices the session; discard discards', async (t) => {
  const big = await dropout(sessionBody(priced.evcoId, { total_energy_kwh: '1500', start_date_time: '2026-03-02T00:00:00+01:00', end_date_time: '2026-03-03T00:00:00+01:00' }));
  const noCheck = await app.request('POST', api(`/msp-dropout-case/${big.dropoutCase.id}/reprocess`), { body: { instruction: 'bypass' } });
  t.is(noCheck.body.param, '$.bypass_checks');
  const wrong = await app.request('POST', api(`/msp-dropout-case/${big.dropoutCase.id}/reprocess`), { body: { instruction: 'bypass', bypass_checks: ['no_such_check'] } });
  t.is(wrong.body.param, '$.bypass_checks[0]');
  const unknownInstruction = await app.request('POST', api(`/msp-dropout-case/${big.dropoutCase.id}/reprocess`), { body: { instruction: 'ignore' } });
  t.is(unknownInstruction.body.param, '$.instruction');
  const bypass = await app.request('POST', api(`/msp-dropout-case/${big.dropoutCase.id}/reprocess`), { body: { instruction: 'bypass', bypass_checks: ['plausible_energy'] } });
  t.is(bypass.status, 200, JSON.stringify(bypass.body));
  const session = await processed(app, big.session.id);
  t.is(session.status, 'priced');
  t.is((await pricingResults(app, big.session.id))[0].total_excl_vat, '750.00');
  // The bypass stays with the session until a resubmission replaces its facts: a later repricing (or
  // retry) keeps it, the operator's judgement of those facts standing.
  const repriced = await app.request('POST', api(`/msp-charge-session/${big.session.id}/reprice`));
  t.true(repriced.status < 300, JSON.stringify(repriced.body));
  for (const until = Date.now() + 10_000; (await pricingResults(app, big.session.id)).length < 2 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  t.deepEqual((await pricingResults(app, big.session.id)).map((r: any) => r.total_excl_vat), ['750.00', '750.00']);
  t.is((await processed(app, big.session.id)).status, 'priced');

  const future = await dropout(sessionBody(priced.evcoId, { start_date_time: '2030-01-01T10:00:00Z', end_date_time: '2030-01-01T11:00:00Z' }));
  const discard = await app.request('POST', api(`/msp-dropout-case/${future.dropoutCase.id}/reprocess`), { body: { instruction: 'discard' } });
  t.like(discard.body, { status: 'resolved', resolution: 'discard' });
  t.is((await app.request('GET', api(`/msp-charge-session/${future.session.id}`))).body.status, 'discarded');
  const reprice = await app.request('POST', api(`/msp-charge-session/${future.session.id}/reprice`));
  t.is(reprice.body.code, 'session_discarded');
});

test('no rate plan, no version and no VAT rate drop out with their reasons', async (t) => {
  const noRates = await pricedSubscription(app, adminId, { definition: { rates: { energy: { price: '1' } } } });
  const em = (await import('../../../src/access/admin-scope.ts')).scopedEm(app.orm);
  await em.getConnection().execute(`update msp_subscription_plan set rate_plan_id = null where id = '${noRates.planId}'`);
  t.is((await dropout(sessionBody(noRates.evcoId))).session.dropout_reason, 'rate_plan_missing');
  const laterRates = await createRatePlan(app, [{ valid_from: '2026-02-01T00:00:00+01:00', definition: SIMPLE_RATES }]);
  const early = await pricedSubscription(app, adminId, { ratePlanId: laterRates });
  const late = await dropout(sessionBody(early.evcoId, { start_date_time: '2026-01-31T23:00:00+01:00', end_date_time: '2026-02-01T00:30:00+01:00' }));
  t.is(late.session.dropout_reason, 'rate_plan_version_missing');
  const belgium = await dropout(sessionBody(priced.evcoId, { address: { country: 'LU' } }));
  t.is(belgium.session.dropout_reason, 'vat_rate_missing');
});

test('a credential of another administration sees neither the sessions nor their cases', async (t) => {
  const other = (await createAdministration(app)).id;
  const outsider = await app.credential({ adminIds: [other] });
  const stored = await submitSession(app, sessionBody(priced.evcoId));
  const session = await processed(app, stored.id);
  const [result] = await pricingResults(app, stored.id);
  for (const path of [`/msp-charge-session/${stored.id}`, `/msp-charge-session-original/${stored.id}`, `/msp-charge-session-priced/${result.id}`]) {
    const r = await app.request('GET', api(path), { auth: outsider });
    t.is(r.body.code, 'not_found', path);
  }
  const lists = await app.request('GET', api('/msp-charge-session'), { auth: outsider });
  t.deepEqual(lists.body.items, []);
  const cases = await app.request('GET', api('/msp-dropout-case'), { auth: outsider });
  t.deepEqual(cases.body.items, []);
  t.is(session.admin_id, adminId);
});

/** Discards the open unknown_token cases once `ids` are processed: such cases gather every unresolved token's sessions, which the tests running after would count. */
async function discardOpenCases(ids: string[]) {
  for (const id of ids) {
    const session = await processed(app, id);
    if (session.status === 'dropout') await app.request('POST', api(`/msp-dropout-case/${session.dropout_case_id}/reprocess`), { body: { instruction: 'discard' } });
  }
}

// Found by probing (2026-11-29): the case was loaded, then locked, and its status checked as loaded:
// two reprocesses at once both answered 200.
test.serial('two reprocesses of one case at once: one resolves it, the other is 400 dropout_case_resolved', async (t) => {
  for (const instructions of [['retry', 'retry'], ['retry', 'discard']]) {
    const evco = `NLUNK${String(Date.now()).slice(-9)}`;
    const { session } = await dropout(sessionBody(evco));
    const { session: second } = await dropout(sessionBody(evco));
    const answers = await Promise.all(instructions.map((instruction) =>
      app.request('POST', api(`/msp-dropout-case/${session.dropout_case_id}/reprocess`), { body: { instruction } })));
    t.deepEqual(answers.map((a) => a.status).sort(), [200, 400], JSON.stringify(answers.map((a) => a.body)));
    t.is(answers.find((a) => a.status === 400)!.body.code, 'dropout_case_resolved');
    await discardOpenCases([session.id, second.id]);
  }
});

// Found by probing (2026-11-29): repricing a session in dropout left it counted in its case, so
// when it dropped out again its case counted it twice.
test.serial('repricing a session in dropout takes it out of its case; dropping out again, it is counted once', async (t) => {
  const evco = `NLUNK${String(Date.now()).slice(-9)}`;
  const { session } = await dropout(sessionBody(evco));
  const { session: other } = await dropout(sessionBody(evco));
  const members = async (caseId: string) =>
    (await app.request('GET', api(`/msp-charge-session?dropout_case_id=${caseId}&page_size=1000`))).body.items.filter((s: any) => s.status === 'dropout').length;
  t.is((await app.request('POST', api(`/msp-charge-session/${session.id}/reprice`))).status, 200);
  const again = await processed(app, session.id);
  t.is(again.status, 'dropout');
  const theCase = (await app.request('GET', api(`/msp-dropout-case/${again.dropout_case_id}`))).body;
  t.is(theCase.session_count, await members(again.dropout_case_id));
  t.is(other.dropout_case_id, again.dropout_case_id);
  await discardOpenCases([session.id, other.id]);
  // The last session of a case: repriced, its case is resolved (retry), a new one opened when it drops out again.
  const lone = (await dropout(sessionBody(`NLUNK${String(Date.now() + 7).slice(-9)}`))).session;
  t.is((await app.request('POST', api(`/msp-charge-session/${lone.id}/reprice`))).status, 200);
  const loneAgain = await processed(app, lone.id);
  t.is(loneAgain.status, 'dropout');
  const oldCase = (await app.request('GET', api(`/msp-dropout-case/${lone.dropout_case_id}`))).body;
  const newCase = (await app.request('GET', api(`/msp-dropout-case/${loneAgain.dropout_case_id}`))).body;
  t.is(newCase.session_count, await members(loneAgain.dropout_case_id));
  if (oldCase.id !== newCase.id) t.like(oldCase, { status: 'resolved', resolution: 'retry' });
  await discardOpenCases([lone.id]);
});
