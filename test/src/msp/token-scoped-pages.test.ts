// A credential limited to one administration pages its tokens through the (current_admin_id,
// evco_id) index (scopedRead, src/access/admin-scope.ts): its own tokens only, in evco_id order, both
// ways, with another administration's tokens before, between and after them. A file of its own: the
// lists of token.queries.test.ts count every token of their database.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const afterOf = (linkNext: string) => new URLSearchParams(linkNext.split('?')[1]).get('after');

test('a credential limited to one administration pages its tokens in evco_id order both ways, others before, between and after', async (t) => {
  const mine = (await createAdministration(app)).id;
  const other = (await createAdministration(app)).id;
  const expected: string[] = [];
  // A token that moved keeps its first administration: the scope is the current one.
  for (const [current, initial] of [[other, mine], [mine, other], [other, other], [mine, mine], [mine, other], [other, mine]]) {
    const { evcoId } = await insertToken(app, initial, { currentAdmin: current });
    if (current === mine) expected.push(evcoId);
  }
  const mineOnly = await app.credential({ role: 'readonly', adminIds: [mine] });
  const forwards: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 5; page++) {
    const rest = await app.request('GET', `/main/v1/msp-token?page_size=2${after ? `&after=${after}` : ''}`, { auth: mineOnly });
    forwards.push(...rest.body.items.map((token: any) => token.evco_id));
    if (!rest.body.link_next) break;
    after = afterOf(rest.body.link_next);
  }
  t.deepEqual(forwards, expected);
  const backwards: string[] = [];
  let before: string | null = null;
  for (let page = 0; page < 5; page++) {
    const connection: any = (await data(app, `query ($before: String) { tokens(last: 2, before: $before) {
      edges { node { evcoId } } pageInfo { hasPreviousPage startCursor } } }`, { before }, mineOnly)).tokens;
    backwards.unshift(...connection.edges.map((e: any) => e.node.evcoId));
    if (!connection.pageInfo.hasPreviousPage) break;
    before = connection.pageInfo.startCursor;
  }
  t.deepEqual(backwards, expected);
});
