import test from 'ava';
import { authorizeToken, authorizeTokens } from '../../../src/msp/authorize-token.service.ts';
import { evcoCheckDigit } from '../../../src/msp/evco-id.ts';
import { Token } from '../../../src/msp/token.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, insertToken, insertTokenLink, insertTokenSubscription } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const at = (iso: string) => new Date(iso);
const authorize = (evcoId: string, moment: string) => authorizeToken(scopedEm(app.orm), evcoId, at(moment));
const reason = async (evcoId: string, moment: string) => (await authorize(evcoId, moment)).reason;

test('a link without valid_from starts with its subscription; valid_until is exclusive', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId, { validFrom: at('2026-01-01T00:00:00Z') });
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id, { validUntil: at('2026-04-01T12:00:00Z') });

  t.is(await reason(token.evcoId, '2025-12-31T23:59:59.999Z'), 'no_valid_link');
  t.deepEqual(await authorize(token.evcoId, '2026-01-01T00:00:00.000Z'), {
    allowed: true, reason: 'ok', tokenId: token.id, subscriptionId: subscription.id, customerId: subscription.customerId,
  });
  t.is(await reason(token.evcoId, '2026-04-01T13:59:59.999+02:00'), 'ok');
  t.is(await reason(token.evcoId, '2026-04-01T12:00:00.000Z'), 'no_valid_link');
});

test('a link with its own valid_from starts then', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId, { validFrom: at('2026-01-01T00:00:00Z') });
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id, { validFrom: at('2026-02-01T00:00:00Z') });
  t.is(await reason(token.evcoId, '2026-01-31T23:59:59.999Z'), 'no_valid_link');
  t.is(await reason(token.evcoId, '2026-02-01T00:00:00.000Z'), 'ok');
  t.is(await reason(token.evcoId, '2099-01-01T00:00:00.000Z'), 'ok', 'open-ended');
});

test('the subscription must be valid at the moment and not defunct', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId, { validFrom: at('2026-01-01T00:00:00Z'), validUntil: at('2026-07-01T00:00:00Z') });
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id);
  t.is(await reason(token.evcoId, '2026-06-30T23:59:59.999Z'), 'ok');
  t.like(await authorize(token.evcoId, '2026-07-01T00:00:00.000Z'), { allowed: false, reason: 'subscription_not_valid', subscriptionId: subscription.id });

  const defunct = await insertTokenSubscription(app, adminId, { validFrom: at('2026-01-01T00:00:00Z'), defunct: true });
  const other = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, defunct.id, other.id);
  t.is(await reason(other.evcoId, '2026-03-01T00:00:00Z'), 'subscription_not_valid');
});

test('a defunct link does not count', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id, { defunct: true });
  t.is(await reason(token.evcoId, '2026-03-01T00:00:00Z'), 'no_valid_link');
});

test('a seamless hand-over: at the shared bound the new subscription holds the token', async (t) => {
  const first = await insertTokenSubscription(app, adminId);
  const second = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, first.id, token.id, { validUntil: at('2026-05-01T00:00:00Z') });
  await insertTokenLink(app, adminId, second.id, token.id, { validFrom: at('2026-05-01T00:00:00Z') });
  t.is((await authorize(token.evcoId, '2026-04-30T23:59:59.999Z')).subscriptionId, first.id);
  t.is((await authorize(token.evcoId, '2026-05-01T00:00:00.000Z')).subscriptionId, second.id);
});

test('charge authorization rules: token block, then customer block', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const token = await insertToken(app, adminId, { evcoId: 'NLAUT000000001' });
  await insertTokenLink(app, adminId, subscription.id, token.id);
  const moment = '2026-03-01T00:00:00Z';
  t.is(await reason('nl-aut-000000001', moment), 'ok', 'any accepted spelling');
  t.is(await reason(`NL*AUT*000000001*${evcoCheckDigit('NLAUT000000001')}`, moment), 'ok', 'with its check digit');
  t.is(await reason(`NLAUT000000001${evcoCheckDigit('NLAUT000000001') === 'A' ? 'B' : 'A'}`, moment), 'unknown_token', 'a wrong check digit');

  await app.request('POST', '/main/v1/msp-token/NLAUT000000001/block-charge-auth-requests');
  t.is(await reason(token.evcoId, moment), 'token_blocked');
  await app.request('POST', `/main/v1/customer/${subscription.customerId}/block-charge-auth-requests`);
  t.is(await reason(token.evcoId, moment), 'token_blocked', 'the token block is checked first');
  await app.request('POST', '/main/v1/msp-token/NLAUT000000001/unblock-charge-auth-requests');
  t.like(await authorize(token.evcoId, moment), { allowed: false, reason: 'customer_blocked', customerId: subscription.customerId });
  await app.request('POST', `/main/v1/customer/${subscription.customerId}/unblock-charge-auth-requests`);
  t.is(await reason(token.evcoId, moment), 'ok');
});

test('an unknown or malformed evco_id is an unknown token', async (t) => {
  t.deepEqual(await authorize('NLXXX999999999', '2026-03-01T00:00:00Z'), { allowed: false, reason: 'unknown_token' });
  t.is(await reason('not an id', '2026-03-01T00:00:00Z'), 'unknown_token');
});

test('a customer of another administration decides too (scoped unit of work)', async (t) => {
  const home = (await createAdministration(app)).id;
  const customer = await createCustomer(app, home);
  const subscription = await insertTokenSubscription(app, adminId, { customer: customer.id });
  const token = await insertToken(app, adminId);
  await insertTokenLink(app, adminId, subscription.id, token.id);
  await app.request('POST', `/main/v1/customer/${customer.id}/block-charge-auth-requests`);
  const scoped = scopedEm(app.orm, { all: false, ids: [adminId] });
  t.is((await authorizeToken(scoped, token.evcoId, at('2026-03-01T00:00:00Z'))).reason, 'customer_blocked');
});

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

test.serial('the batch variant costs the same queries for 2 or 20 tokens', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const token = await insertToken(app, adminId);
    if (i % 2 === 0) await insertTokenLink(app, adminId, subscription.id, token.id);
    ids.push(token.id);
  }
  const decide = async (tokenIds: string[]) => {
    const em = scopedEm(app.orm);
    const tokens = await em.find(Token, { id: { $in: tokenIds } });
    let reasons: string[] = [];
    const queries = await countQueries(async () => {
      const decisions = await authorizeTokens(em, tokens, at('2026-03-01T00:00:00Z'));
      reasons = tokenIds.map((id) => decisions.get(id)!.reason);
    });
    return { queries, reasons };
  };
  const small = await decide(ids.slice(0, 2));
  const large = await decide(ids);
  t.deepEqual(small.reasons, ['ok', 'no_valid_link']);
  t.deepEqual(large.reasons, ids.map((_, i) => (i % 2 === 0 ? 'ok' : 'no_valid_link')));
  t.is(large.queries, small.queries);
  t.true(small.queries >= 1 && small.queries <= 3, `${small.queries} queries`);
});
