// The token list decides is_currently_valid in its own statement (currentValiditySql,
// src/msp/authorize-token.service.ts); it must decide as currentValidity does for every mix of
// links, subscriptions, defunct records, blocks and bounds within a millisecond of the moment.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { currentValidity } from '../../../src/msp/authorize-token.service.ts';
import { tokenList } from '../../../src/msp/token.queries.ts';
import { pinValidityNowForTests } from '../../../src/platform/validity.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('the list decides is_currently_valid in SQL as currentValidity decides it, bounds at the millisecond included', async (t) => {
  const admin = (await createAdministration(app)).id;
  const em = scopedEm(app.orm);
  const sql = (text: string, params: unknown[] = []) => em.getConnection().execute(text, params);
  const at = new Date('2026-05-01T12:00:00.000Z');
  // Bounds around `at`: a millisecond and half a millisecond (a timestamp's microseconds) either side, and none.
  const bounds = ['2026-05-01 11:59:59.999', '2026-05-01 11:59:59.9995', '2026-05-01 12:00:00', '2026-05-01 12:00:00.0005', '2026-05-01 12:00:00.001'];
  let seed = 7;
  const pick = <T>(values: readonly T[]): T => values[(seed = (seed * 48271) % 2147483647) % values.length];
  await sql(`insert into msp_subscription_plan (id, admin_id, name, recurring_costs, credit_excluded_components, created_at, updated_at)
    values (svc_uuidv7(), ?, 'Validity plan', '[]', '[]', now(), now())`, [admin]);
  for (let n = 0; n < 120; n++) {
    const [customer] = await sql(`insert into customer (id, admin_id, name, country, entity_type, charge_auth_blocked, custom_fields, created_at, updated_at)
      values (svc_uuidv7(), ?, 'V' || ?::text, 'NL', 'person', ?, '{}', now(), now()) returning id`, [admin, n, pick([false, false, true])]);
    const [token] = await sql(`insert into msp_token (id, evco_id, form_factor, initial_admin_id, current_admin_id, charge_auth_blocked, fulfilment, created_at, updated_at)
      values (svc_uuidv7(), 'NLVAL' || lpad(?::text, 9, '0'), 'card', ?, ?, ?, 'none', now(), now()) returning id`, [n, admin, admin, pick([false, false, false, true])]);
    for (let k = pick([0, 1, 1, 2, 3]); k > 0; k--) {
      const [subscription] = await sql(`insert into msp_token_subscription (id, admin_id, customer_id, plan_id, valid_from, valid_until, defunct, custom_fields,
          created_at, updated_at)
        select svc_uuidv7(), ?, ?, p.id, ?::timestamptz, ?::timestamptz, ?, '{}', now(), now() from msp_subscription_plan p where p.admin_id = ? returning id`,
      [admin, customer.id, `${pick([...bounds, '2026-01-01'])}Z`, pick([null, null, ...bounds.map((b) => `${b}Z`)]), pick([false, false, true]), admin]);
      await sql(`insert into msp_token_link (id, admin_id, subscription_id, token_id, valid_from, valid_until, defunct, created_at, updated_at)
        values (svc_uuidv7(), ?, ?, ?, ?::timestamptz, ?::timestamptz, ?, now() + (? || ' seconds')::interval, now())`,
      [admin, subscription.id, token.id, pick([null, null, ...bounds.map((b) => `${b}Z`)]), pick([null, null, ...bounds.map((b) => `${b}Z`)]),
        pick([false, false, false, true]), String(pick([1, 2, 3, 4]))]);
    }
  }
  pinValidityNowForTests(at);
  try {
    const listed = (await tokenList(scopedEm(app.orm, { all: false, ids: [admin] })).page({ limit: 1000 })) as { id: string; evcoId: string; isCurrentlyValid: boolean }[];
    t.is(listed.length, 120);
    const decided = await currentValidity(scopedEm(app.orm), listed, at);
    const differing = listed.filter((token) => decided.get(token.id) !== token.isCurrentlyValid).map((token) => token.evcoId);
    t.deepEqual(differing, []);
    t.true(listed.some((token) => token.isCurrentlyValid) && listed.some((token) => !token.isCurrentlyValid));
  } finally {
    pinValidityNowForTests(null);
  }
});
