// A credential limited to one administration pages its tokens through the (current_admin_id,
// evco_id) index (scopedRead, src/access/admin-scope.ts): its own tokens only, in evco_id order, both
// ways, with another administration's tokens before, between and after them. A file of its own: the
// lists of token.queries.test.ts count every token of their database.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken } from '../../helpers/factories.ts';
import { graphQlPagesBackwards, restPages } from '../../helpers/seek-pages.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

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
  t.deepEqual(await restPages(app, '/main/v1/msp-token', mineOnly, 'evco_id'), expected);
  t.deepEqual(await graphQlPagesBackwards(app, 'tokens', mineOnly, 'evcoId'), expected);
});
