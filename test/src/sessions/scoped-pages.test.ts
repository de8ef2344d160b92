// A credential limited to one administration reads sessions and pricing results through their
// (admin_id, id) index (admin-scope.ts scopedRead: the scope as a list condition, the administration
// first in the order); one limited to two reads them by id. Whichever way, the pages hold that
// scope's rows only, in id order, forwards (REST after) and backwards (GraphQL last/before), with
// the other administration's rows before, between and after them.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { graphQlPagesBackwards, restPages } from '../../helpers/seek-pages.ts';

let app: TestApp;
let mine: string;
let other: string;
test.before(async () => {
  app = await startTestApp();
  mine = (await createAdministration(app)).id;
  other = (await createAdministration(app)).id;
  const subscriptions = { [mine]: await pricedSubscription(app, mine), [other]: await pricedSubscription(app, other) };
  // The other administration's sessions first, between and last.
  for (const admin of [other, mine, other, mine, other, mine, mine, other]) {
    await processed(app, (await submitSession(app, sessionBody(subscriptions[admin].evcoId))).id);
  }
});
test.after.always(async () => { await app?.close(); });

const LISTS = [
  { path: '/main/v1/msp-charge-session-priced', field: 'pricingResults' },
  { path: '/main/v1/msp-charge-session', field: 'chargeSessions' },
];

async function idsOf(path: string, admins: string[]): Promise<string[]> {
  const all = (await app.request('GET', `${path}?page_size=100`)).body.items;
  return all.filter((item: any) => admins.includes(item.admin_id)).map((item: any) => item.id);
}

for (const { path, field } of LISTS) {
  test(`${field}, one administration: its rows only, in id order, forwards and backwards`, async (t) => {
    const expected = await idsOf(path, [mine]);
    t.is(expected.length, 4);
    t.deepEqual(expected, [...expected].sort());
    const limited = await app.credential({ role: 'readonly', adminIds: [mine] });
    t.deepEqual(await restPages(app, path, limited), expected);
    t.deepEqual(await graphQlPagesBackwards(app, field, limited), expected);
  });

  test(`${field}, two administrations: both their rows, in id order, forwards and backwards`, async (t) => {
    const expected = await idsOf(path, [mine, other]);
    t.is(expected.length, 8);
    const limited = await app.credential({ role: 'readonly', adminIds: [mine, other] });
    t.deepEqual(await restPages(app, path, limited), expected);
    t.deepEqual(await graphQlPagesBackwards(app, field, limited), expected);
  });
}

test('one administration: a session filter of the other administration finds nothing', async (t) => {
  const theirs = (await app.request('GET', '/main/v1/msp-charge-session-priced?page_size=100')).body.items.find((item: any) => item.admin_id === other);
  const limited = await app.credential({ role: 'readonly', adminIds: [mine] });
  const response = await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${theirs.charge_session_id}`, { auth: limited });
  t.is(response.status, 200);
  t.deepEqual(response.body.items, []);
  const one = await app.request('GET', `/main/v1/msp-charge-session-priced/${theirs.id}`, { auth: limited });
  t.is(one.status, 400);
  t.is(one.body.code, 'not_found');
});
