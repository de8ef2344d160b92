import test from 'ava';
import { SubscriptionPlan } from '../../src/msp/subscription-plan.entity.ts';
import { Administration } from '../../src/parties/administration.entity.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { RatePlanVersion } from '../../src/pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../../src/pricing/rate-plan.entity.ts';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

/** Rate plans shared with one new administration, each with versions and a subscription plan using it, written directly. */
async function seed(count: number, versions: number): Promise<{ adminId: string; auth: Auth }> {
  const adminId = (await createAdministration(app)).id;
  const em = scopedEm(app.orm);
  for (let i = 0; i < count; i++) {
    const plan = em.create(RatePlan, { name: `Plan ${i}`, currency: 'EUR', adminIds: [adminId] } as never);
    for (let v = 0; v < versions; v++) {
      em.create(RatePlanVersion, {
        ratePlan: plan, validFrom: new Date(Date.UTC(2026, v, 1)), definition: { rates: { energy: { price: `0.${30 + v}` } }, rules: [] },
      } as never);
    }
    em.create(SubscriptionPlan, { admin: em.getReference(Administration, adminId), name: `Subscription plan ${i}`, ratePlanId: plan.id } as never);
  }
  await em.flush();
  return { adminId, auth: await app.credential({ adminIds: [adminId] }) };
}

const RATE_PLANS = `{ ratePlans(currency: "EUR", first: 50) { edges { node {
  name adminIds
  versions(first: 3) { edges { node { validFrom definition { rates { energy { price } } rules { name } } ratePlan { name } } } }
} } } }`;

const SUBSCRIPTION_PLANS = `query ($admin: ID!) { subscriptionPlans(adminId: $admin, first: 50) { edges { node {
  name ratePlan { name versions(first: 3) { edges { node { databaseId ratePlan { name } } } } }
} } } }`;

test.serial('rate plans → versions and subscription plans → rate plans cost the same few queries for 2 or 50 plans', async (t) => {
  const small = await seed(2, 1);
  const large = await seed(50, 3);
  for (const { auth } of [small, large]) await data(app, '{ administrations { id } }', {}, auth); // authenticates (then cached)

  let result: Record<string, any> = {};
  const forSmall = await countQueries(app.orm, () => data(app, RATE_PLANS, {}, small.auth));
  const forLarge = await countQueries(app.orm, async () => { result = await data(app, RATE_PLANS, {}, large.auth); });
  const plans = result.ratePlans.edges;
  t.is(plans.length, 50);
  t.true(plans.every((p: any) => p.node.versions.edges.length === 3 && p.node.versions.edges.every((v: any) => v.node.ratePlan.name === p.node.name)));
  t.is(plans[0].node.versions.edges[2].node.definition.rates.energy.price, '0.32');
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));
  // the caller's administrations (for the visibility condition), the rate plans, their versions
  t.is(forLarge.length, 3, forLarge.join('\n'));

  const viaSmall = await countQueries(app.orm, () => data(app, SUBSCRIPTION_PLANS, { admin: small.adminId }, small.auth));
  const viaLarge = await countQueries(app.orm, async () => { result = await data(app, SUBSCRIPTION_PLANS, { admin: large.adminId }, large.auth); });
  const subscriptionPlans = result.subscriptionPlans.edges;
  t.is(subscriptionPlans.length, 50);
  t.true(subscriptionPlans.every((p: any) => p.node.ratePlan.versions.edges.length === 3));
  t.is(viaLarge.length, viaSmall.length, viaLarge.join('\n'));
  // subscription plans, their rate plans, the caller's administrations (visibility), the versions
  t.is(viaLarge.length, 4, viaLarge.join('\n'));
});
