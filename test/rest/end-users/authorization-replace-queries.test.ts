// The deprecated PUT of an end user's authorizations (up to 1,000 items) costs the same few queries
// whatever the number of items: targets are found together, not one query per item.
import test from 'ava';
import { Administration } from '../../../src/parties/administration.entity.ts';
import { Customer } from '../../../src/parties/customer.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createEndUser } from '../../helpers/factories.ts';
import { countQueries } from '../../helpers/sql-count.ts';
import { seedSubscriptions } from '../../schema/msp.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

let seeded = 0;
/** Customers with external references, written directly. */
async function seedCustomers(count: number): Promise<{ id: string; externalReference: string }[]> {
  const em = scopedEm(app.orm);
  const admin = em.getReference(Administration, adminId);
  const customers = Array.from({ length: count }, () => {
    const externalReference = `replace-queries-${process.pid}-${++seeded}`;
    return em.create(Customer, { admin, name: externalReference, country: 'NL', externalReference } as never) as Customer;
  });
  await em.flush();
  return customers.map((c) => ({ id: c.id, externalReference: c.externalReference! }));
}

/** Replaces twice (all new, then half kept, half new, the rest made defunct); answers the queries of each. */
async function replaceTwice(segment: string, member: string, targets: string[]): Promise<string[][]> {
  const user = await createEndUser(app, adminId);
  const path = `/main/v1/end-user/${user.id}/${segment}`;
  const half = Math.floor(targets.length / 2);
  const bodies = [
    { items: targets.slice(0, half).map((target) => ({ [member]: target })) },
    { items: targets.slice(half / 2).map((target, i) => ({ [member]: target, role: i % 2 ? 'manager' : null })) },
  ];
  const counts: string[][] = [];
  for (const body of bodies) {
    let status = 0;
    counts.push(await countQueries(app.orm, async () => { status = (await app.request('PUT', path, { body })).status; }));
    if (status !== 200) throw new Error(`replace answered ${status}`);
  }
  return counts;
}

test.serial('replacing customer authorizations: the same queries for 4 or 100 items', async (t) => {
  const named = (customers: { id: string; externalReference: string }[]) =>
    customers.map((c, i) => (i % 2 ? c.id : `ext_ref.${c.externalReference}`));
  const small = await replaceTwice('authorization-customer', 'customer_id', named(await seedCustomers(4)));
  const large = await replaceTwice('authorization-customer', 'customer_id', named(await seedCustomers(100)));
  for (const [i, queries] of large.entries()) {
    t.is(queries.length, small[i].length, queries.join('\n'));
  }
});

test.serial('replacing subscription authorizations: the same queries for 4 or 100 items', async (t) => {
  const subscriptions = async (count: number) =>
    (await seedSubscriptions(app, adminId, (await seedCustomers(count)).map((c) => c.id), { subscriptions: 1, links: 0 })).map((s) => s.id);
  const small = await replaceTwice('authorization-msp-token-subscription', 'subscription_id', await subscriptions(4));
  const large = await replaceTwice('authorization-msp-token-subscription', 'subscription_id', await subscriptions(100));
  for (const [i, queries] of large.entries()) {
    t.is(queries.length, small[i].length, queries.join('\n'));
  }
});
