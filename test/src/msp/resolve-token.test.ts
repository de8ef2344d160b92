import test from 'ava';
import { evcoCheckDigit } from '../../../src/msp/evco-id.ts';
import { resolveToken, resolveTokens } from '../../../src/msp/resolve-token.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  createAdministration, insertSubscriptionPlan, insertToken, insertTokenLink, insertTokenSubscription,
} from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const at = (iso: string) => new Date(iso);

/** The SQL statements issued while `run` is in flight (a serial test: nothing else runs then). */
async function countQueries(run: () => Promise<unknown>): Promise<number> {
  const logger = app.orm.config.getLogger();
  const original = logger.logQuery;
  let count = 0;
  logger.logQuery = function (context) {
    count++;
    return original.call(this, context);
  };
  try {
    await run();
  } finally {
    logger.logQuery = original;
  }
  return count;
}

test('pairs of one batch: the same token at several moments, spellings, unknown ids, a link to an invalid subscription', async (t) => {
  const ratePlanId = '0190a6c0-0000-7000-8000-000000000001';
  const plan = await insertSubscriptionPlan(app, adminId, { ratePlanId, creditExcludedComponents: ['parking_time'] });
  const first = await insertTokenSubscription(app, adminId, { plan: plan.id });
  const second = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId, { evcoId: 'NLRES000000001' });
  await insertTokenLink(app, adminId, first.id, token.id, { validUntil: at('2026-05-01T00:00:00Z') });
  await insertTokenLink(app, adminId, second.id, token.id, { validFrom: at('2026-05-01T00:00:00Z') });
  const defunct = await insertTokenSubscription(app, adminId, { defunct: true });
  const orphan = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, defunct.id, orphan.id);

  const [before, handedOver, early, spelled, unknown, invalid] = await resolveTokens(scopedEm(app.orm), [
    { evcoId: 'NLRES000000001', at: at('2026-04-30T23:59:59.999Z') },
    { evcoId: 'NLRES000000001', at: at('2026-05-01T00:00:00Z') },
    { evcoId: 'NLRES000000001', at: at('2025-12-31T23:59:59.999Z') },
    { evcoId: `nl*res*000000001*${evcoCheckDigit('NLRES000000001').toLowerCase()}`, at: at('2026-03-01T00:00:00Z') },
    { evcoId: 'NLXXX999999999', at: at('2026-03-01T00:00:00Z') },
    { evcoId: orphan.evcoId, at: at('2026-03-01T00:00:00Z') },
  ]);
  t.like(before, { token: { id: token.id, evcoId: 'NLRES000000001', currentAdminId: adminId, chargeAuthBlocked: false } });
  t.deepEqual(before.subscription, {
    id: first.id, externalReference: null, monetaryCreditBalance: '0.000000',
    admin: { id: adminId, currency: 'EUR' }, customer: { id: first.customerId, chargeAuthBlocked: false },
    plan: { id: plan.id, name: before.subscription!.plan.name, ratePlanId, useCustomerReimbursementVat: false, creditExcludedComponents: ['parking_time'] },
  });
  t.is(handedOver.subscription?.id, second.id, 'at the shared bound the new subscription holds the token');
  t.deepEqual(handedOver.currentLinks.map((l) => l.subscription.id), [second.id]);
  t.like(early, { token: { id: token.id }, currentLinks: [], subscription: null });
  t.is(spelled.subscription?.id, first.id, 'any accepted spelling, with its check digit');
  t.deepEqual(unknown, { token: null, currentLinks: [], subscription: null });
  t.deepEqual(invalid.currentLinks.map((l) => l.subscription.id), [defunct.id], 'the link counts, its subscription does not');
  t.is(invalid.subscription, null);
});

test('read past the administration filter: processing and a customer of another administration see the same', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id);
  const other = (await createAdministration(app)).id;
  const resolved = await resolveToken(scopedEm(app.orm, { all: false, ids: [other] }), token.evcoId, at('2026-03-01T00:00:00Z'));
  t.is(resolved.subscription?.id, subscription.id);
});

test.serial('one query for any number of pairs, none for none', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const evcoIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const token = await insertToken(app, adminId);
    await insertTokenLink(app, adminId, subscription.id, token.id);
    evcoIds.push(token.evcoId);
  }
  const em = scopedEm(app.orm);
  const pairs = evcoIds.flatMap((evcoId) => [{ evcoId, at: at('2026-03-01T00:00:00Z') }, { evcoId, at: at('2025-03-01T00:00:00Z') }]);
  let resolved: Awaited<ReturnType<typeof resolveTokens>> = [];
  t.is(await countQueries(async () => { resolved = await resolveTokens(em, pairs); }), 1);
  t.deepEqual(resolved.map((r) => r.subscription?.id ?? null), pairs.map((_, i) => (i % 2 === 0 ? subscription.id : null)));
  t.is(await countQueries(() => resolveTokens(em, pairs.slice(0, 1))), 1);
  t.is(await countQueries(() => resolveTokens(em, [])), 0);
});
