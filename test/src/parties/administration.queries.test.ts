// The administration list (src/parties/administration.queries.ts) reads with a fixed SQL string
// and the credential's scope: every field as stored, with or without a seller, only the caller's
// administrations (slugs quoted safely), through REST and GraphQL alike.
import test from 'ava';
import { Administration } from '../../../src/parties/administration.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

async function withoutSeller(id: string): Promise<string> {
  const em = scopedEm(app.orm);
  em.create(Administration, { id, name: `No seller ${id}`, currency: 'USD', country: 'US' });
  await em.flush();
  return id;
}

async function expected(id: string) {
  const a = await scopedEm(app.orm).findOneOrFail(Administration, { id }, { populate: ['seller'] });
  return {
    id: a.id, name: a.name, currency: a.currency, country: a.country, locale_id: a.localeId ?? null,
    seller_id: a.seller?.id ?? null, seller_name: a.seller?.name ?? null, seller_county: a.seller?.country ?? null,
    created_at: a.createdAt.toISOString(), updated_at: a.updatedAt.toISOString(),
  };
}

// Serial: the other test creates administrations, which would fall between the reads compared here.
test.serial('every field as stored, with and without a seller, ordered by slug', async (t) => {
  const withSeller = (await createAdministration(app, { country: 'BE', localeId: 'nl-BE' })).id;
  const bare = await withoutSeller(`bare-${process.pid}`);
  const rest = await app.request('GET', '/main/v1/administration');
  t.is(rest.status, 200);
  const byId = new Map(rest.body.items.map((item: any) => [item.id, item]));
  t.deepEqual(byId.get(withSeller), await expected(withSeller));
  t.deepEqual(byId.get(bare), await expected(bare));
  t.like(byId.get(bare), { seller_id: null, seller_name: null, locale_id: null });
  const ids = rest.body.items.map((item: any) => item.id);
  const stored = (await scopedEm(app.orm).find(Administration, {}, { orderBy: { id: 'asc' }, fields: ['id'] })).map((a) => a.id);
  t.deepEqual(ids, stored, 'the database order of the slugs');

  const graph = await data(app, '{ administrations { databaseId sellerName localeId createdAt } }');
  t.deepEqual(graph.administrations.map((a: any) => a.databaseId), ids);
  const bareNode = graph.administrations.find((a: any) => a.databaseId === bare);
  t.deepEqual(bareNode, { databaseId: bare, sellerName: null, localeId: null, createdAt: (await expected(bare)).created_at });
});

test('a limited credential lists only its administrations, a slug with a quote included', async (t) => {
  const quoted = await withoutSeller(`o'reilly-${process.pid}`);
  const plain = (await createAdministration(app)).id;
  await createAdministration(app);
  const limited = await app.credential({ adminIds: [quoted, plain] });
  const rest = await app.request('GET', '/main/v1/administration', { auth: limited });
  t.deepEqual(rest.body.items.map((a: any) => a.id), [plain, quoted].sort());
  t.deepEqual(rest.body.items, [await expected(plain), await expected(quoted)].sort((x, y) => (x.id < y.id ? -1 : 1)));
  const graph = await data(app, '{ administrations { databaseId } }', {}, limited);
  t.deepEqual(graph.administrations.map((a: any) => a.databaseId), [plain, quoted].sort());
});
