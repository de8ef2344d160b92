import test from 'ava';
import { evcoCheckDigit } from '../../../src/msp/evco-id.ts';
import { issueToken, type IssueTokenInput } from '../../../src/msp/issue-token.service.ts';
import { Token } from '../../../src/msp/token.entity.ts';
import { TokenSeries } from '../../../src/msp/token-series.entity.ts';
import { Administration } from '../../../src/parties/administration.entity.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, insertToken } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  await app.request('POST', '/main/v1/msp-token-brand/ACME', { body: { name: 'Acme' } });
});
test.after.always(async () => { await app?.close(); });

const withCheck = (base: string) => base + evcoCheckDigit(base);

async function createSeries(body: Record<string, unknown>) {
  const response = await app.request('POST', '/main/v1/msp-token-series', { body: { admin_id: adminId, name: 'Cards', ...body } });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body as Record<string, any> & { id: string };
}

/** Issues tokens from a series in one transaction, as the subscription operations do. */
function issueFromSeries(seriesId: string, count = 1, extra: Partial<IssueTokenInput> = {}): Promise<string[]> {
  return scopedEm(app.orm).transactional(async (em) => {
    const series = await em.findOneOrFail(TokenSeries, { id: seriesId }, { populate: ['admin'] });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const token = await issueToken(em, { admin: series.admin as Administration, series, formFactor: 'card', ...extra });
      ids.push(token.evcoId);
    }
    return ids;
  });
}

test('create a series: the prefix is normalized and fixes the instance width', async (t) => {
  const series = await createSeries({ evco_prefix: 'nl-tnm-c1', brand_code: 'acme', token_uid_type_id: 'rfid_7byte', external_reference: 'S-1' });
  t.like(series, {
    admin_id: adminId, name: 'Cards', evco_prefix: 'NLTNMC1', instance_width: 7, next_number: 1, form_factor: 'card',
    token_uid_type_id: 'rfid_7byte', brand_code: 'ACME', external_reference: 'S-1',
  });
  t.deepEqual((await app.request('GET', `/main/v1/msp-token-series/${series.id}`)).body, series);
  const list = await app.request('GET', '/main/v1/msp-token-series');
  t.true(list.body.items.some((s: any) => s.id === series.id));
  t.is(list.body.page_size, 500);

  const explicitWidth = await createSeries({ evco_prefix: 'NLTNM', instance_width: 9 });
  t.is(explicitWidth.instance_width, 9);
});

test('series input is checked', async (t) => {
  const cases: [Record<string, unknown>, string, string?][] = [
    [{ evco_prefix: 'NL-TN' }, '$.evco_prefix'],
    [{ evco_prefix: 'NLTNM123456789' }, '$.evco_prefix'],
    [{ evco_prefix: '1LTNM' }, '$.evco_prefix'],
    [{ evco_prefix: 'NLTNMC1', instance_width: 9 }, '$.instance_width'],
    [{ evco_prefix: 'NLTNM', brand_code: 'NOPE' }, '$.brand_code', 'not_found'],
    [{ evco_prefix: 'NLTNM', form_factor: 'coin' }, '$.form_factor'],
    [{ evco_prefix: 'NLTNM', name: null }, '$.name'],
    [{ evco_prefix: 'NLTNM', admin_id: 'no-such-admin' }, '$.admin_id', 'not_found'],
    [{ evco_prefix: 'NLTNM', admin_id: null }, '$.admin_id'],
  ];
  for (const [body, param, code] of cases) {
    const response = await app.request('POST', '/main/v1/msp-token-series', { body: { admin_id: adminId, name: 'x', ...body } });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.body.param, param, JSON.stringify(body));
    if (code) t.is(response.body.code, code);
  }
  await createSeries({ evco_prefix: 'NLTNM', external_reference: 'dup-ref' });
  const duplicate = await app.request('POST', '/main/v1/msp-token-series', { body: { admin_id: adminId, name: 'x', evco_prefix: 'NLTNM', external_reference: 'DUP-REF' } });
  t.is(duplicate.body.code, 'duplicate');
  t.is(duplicate.body.param, '$.external_reference');
});

test('series are scoped by administration', async (t) => {
  const series = await createSeries({ evco_prefix: 'NLSCP' });
  const other = (await createAdministration(app)).id;
  const stranger = await app.credential({ role: 'admin', adminIds: [other] });
  t.is((await app.request('GET', `/main/v1/msp-token-series/${series.id}`, { auth: stranger })).body.code, 'not_found');
  t.deepEqual((await app.request('GET', '/main/v1/msp-token-series', { auth: stranger })).body.items, []);
  const foreign = await app.request('POST', '/main/v1/msp-token-series', { auth: stranger, body: { admin_id: adminId, name: 'x', evco_prefix: 'NLSCP' } });
  t.is(foreign.body.code, 'not_found');
  t.is(foreign.body.param, '$.admin_id');
});

test('issueToken numbers a series with check digits, also several in one transaction', async (t) => {
  const series = await createSeries({ evco_prefix: 'NL-NUM-C1', brand_code: 'ACME', token_uid_type_id: 'rfid_4byte' });
  t.deepEqual(await issueFromSeries(series.id), [withCheck('NLNUMC10000001')]);
  t.deepEqual(await issueFromSeries(series.id, 2), [withCheck('NLNUMC10000002'), withCheck('NLNUMC10000003')]);
  t.is((await app.request('GET', `/main/v1/msp-token-series/${series.id}`)).body.next_number, 4);

  const token = await app.request('GET', `/main/v1/msp-token/${withCheck('NLNUMC10000001')}`);
  t.like(token.body, { token_series_id: series.id, brand_code: 'ACME', token_uid_type_id: 'rfid_4byte', form_factor: 'card', initial_admin_id: adminId, used: false });
});

test('a number taken by hand is skipped', async (t) => {
  const series = await createSeries({ evco_prefix: 'NLSKPC1' });
  await insertToken(app, adminId, { evcoId: 'nlskpc10000001' });
  t.deepEqual(await issueFromSeries(series.id), [withCheck('NLSKPC10000002')]);
});

// Found by probing (2026-11-29): the series gave up after 100 taken numbers, so 101 ids taken by hand
// (another administration's, or imported) left it "exhausted" for good.
test('a run of numbers taken by hand, longer than a hundred, is skipped', async (t) => {
  const series = await createSeries({ evco_prefix: 'NLRUNC1' });
  const em = scopedEm(app.orm);
  for (let n = 1; n <= 120; n++) {
    const base = `NLRUNC1${String(n).padStart(7, '0')}`;
    await insertToken(app, adminId, { evcoId: n % 2 ? base.toLowerCase() : withCheck(base) });
  }
  await em.flush();
  t.deepEqual(await issueFromSeries(series.id), [withCheck('NLRUNC10000121')]);
  t.is((await app.request('GET', `/main/v1/msp-token-series/${series.id}`)).body.next_number, 122);
});

// Found by probing (2026-11-29): the window's end was written with a digit more than the series' numbers
// (…1101 for 101..1100 of a 3-digit series), which reads as text below …150: the ids between went unseen,
// each cost a skip, and the series called itself exhausted with hundreds of numbers free.
test('a short series skips a run taken by hand across its last window', async (t) => {
  const prefix = 'NLSHRT1234567'; // 1-digit numbers: 1..9, one window
  const shortest = await createSeries({ evco_prefix: prefix });
  for (let n = 1; n <= 7; n++) await insertToken(app, adminId, { evcoId: withCheck(`${prefix}${n}`) });
  t.deepEqual(await issueFromSeries(shortest.id), [withCheck(`${prefix}8`)]);

  const series = await createSeries({ evco_prefix: 'NLSHRT12345' }); // 3-digit numbers: 001..999
  const em = scopedEm(app.orm); // 250 tokens taken by hand, in one flush
  for (let n = 1; n <= 250; n++) em.create(Token, { evcoId: withCheck(`NLSHRT12345${String(n).padStart(3, '0')}`), initialAdmin: adminId, currentAdmin: adminId });
  await em.flush();
  const [plan, customer] = await Promise.all([createSubscriptionPlan(app, adminId), createCustomer(app, adminId)]);
  const issued = await app.request('POST', '/main/v1/msp-token-subscription', {
    body: { plan_id: plan.id, customer_id: customer.id, valid_from: '2026-01-01T00:00:00Z', token_series_id: series.id },
  });
  t.is(issued.status, 200, JSON.stringify(issued.body));
  t.is(issued.body.links[0].evco_id, withCheck('NLSHRT12345251'));
});

test('concurrent issues from one series get distinct numbers', async (t) => {
  const series = await createSeries({ evco_prefix: 'NLCONC1' });
  const issued = (await Promise.all([1, 2, 3, 4].map(() => issueFromSeries(series.id)))).flat();
  t.deepEqual([...issued].sort(), ['NLCONC10000001', 'NLCONC10000002', 'NLCONC10000003', 'NLCONC10000004'].map(withCheck));
});

test('a full series is exhausted', async (t) => {
  const series = await createSeries({ evco_prefix: 'NLFUL12345678' });
  const em = scopedEm(app.orm);
  const entity = await em.findOneOrFail(TokenSeries, { id: series.id });
  entity.nextNumber = 9;
  await em.flush();
  t.deepEqual(await issueFromSeries(series.id), [withCheck('NLFUL123456789')]);
  const error = await t.throwsAsync(issueFromSeries(series.id), { instanceOf: DomainError });
  t.is(error?.code, 'token_series_exhausted');
});

test('issueToken with an evco_id keeps its casing and refuses duplicates with or without check digit', async (t) => {
  const admin = (await scopedEm(app.orm).findOneOrFail(Administration, { id: adminId }));
  const issue = (input: Partial<IssueTokenInput>) => scopedEm(app.orm).transactional((em) => issueToken(em, { admin: em.merge(admin), formFactor: 'virtual', ...input }));
  const token = await issue({ evcoId: 'Nl-Dup-000000001', uid: 'app.user-1', uidType: 'app_user' });
  t.is(token.evcoId, 'NlDup000000001');

  for (const evcoId of ['NLDUP000000001', withCheck('nldup000000001')]) {
    const duplicate = await t.throwsAsync(issue({ evcoId }), { instanceOf: DomainError });
    t.is(duplicate?.code, 'duplicate');
    t.deepEqual(duplicate?.fieldPath, ['evco_id']);
  }
  const malformed = await t.throwsAsync(issue({ evcoId: 'NL-DUP-1' }), { instanceOf: DomainError });
  t.deepEqual(malformed?.fieldPath, ['evco_id']);
  const neither = await t.throwsAsync(issue({}), { instanceOf: DomainError });
  t.deepEqual(neither?.fieldPath, ['evco_id']);
  const badBrand = await t.throwsAsync(issue({ evcoId: 'NLDUP000000002', brandCode: 'NOPE' }), { instanceOf: DomainError });
  t.deepEqual(badBrand?.fieldPath, ['brand_code']);
  const badUid = await t.throwsAsync(issue({ evcoId: 'NLDUP000000003', uid: '12', uidType: 'rfid_4byte' }), { instanceOf: DomainError });
  t.deepEqual(badUid?.fieldPath, ['uid']);
});
