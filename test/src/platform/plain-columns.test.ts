// SeekList `plainColumns` (src/platform/seek-page.ts): the customer, token and charge session lists
// read their rows as the database answers them and name them by the entity's metadata. A page must
// equal the page the ORM's own mapping of the same rows gives (every member, dates as Date, JSON,
// references), in the same order, and a limited credential's em still pages only through its
// administrations (the em's filter applies to the query).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, insertToken } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { SeekList, assertPlainColumns } from '../../../src/platform/seek-page.ts';
import { Customer } from '../../../src/parties/customer.entity.ts';
import { Token } from '../../../src/msp/token.entity.ts';
import { ChargeSession } from '../../../src/sessions/charge-session.entity.ts';
import { customerList } from '../../../src/parties/customer.queries.ts';
import { tokenList } from '../../../src/msp/token.queries.ts';
import { chargeSessionList } from '../../../src/sessions/charge-session.queries.ts';

let app: TestApp;
let ours: string;
let theirs: string;

test.before(async () => {
  app = await startTestApp();
  ours = (await createAdministration(app)).id;
  theirs = (await createAdministration(app)).id;
  await createCustomer(app, ours, { custom_fields: { tier: 2, vip: true } });
  await createCustomer(app, theirs, { billing_phone: '+31 30 1234567' });
  await insertToken(app, theirs);
  const sub = await pricedSubscription(app, ours);
  const stored = await submitSession(app, sessionBody(sub.evcoId, { cpo_session_id: 'PLAIN-1' }));
  await processed(app, stored.id);
});
test.after.always(async () => { await app?.close(); });

const ENTITIES = [Customer, Token, ChargeSession] as const;

for (const entity of ENTITIES) {
  test(`a ${entity.name} page read as columns equals the ORM's mapping of it`, async (t) => {
    const em = scopedEm(app.orm);
    const viaOrm = await new SeekList<Record<string, unknown>>(em, { entity }).page({ limit: 1000 });
    const viaColumns = await new SeekList<Record<string, unknown>>(em, { entity, plainColumns: true }).page({ limit: 1000 });
    t.true(viaOrm.length > 0);
    t.deepEqual(viaColumns.map((row) => ({ ...row })), viaOrm.map((row) => ({ ...row })));
    t.true(viaColumns.some((row) => Object.values(row).some((value) => value instanceof Date)));
  });
}

test('the lists that read columns stay within a limited credential\'s administrations', async (t) => {
  const scope = { all: false, ids: [ours] };
  const em = scopedEm(app.orm, scope);
  for (const list of [customerList(em), tokenList(em), chargeSessionList(em)]) {
    const page = await list.page({ limit: 1000 });
    t.true(page.length > 0);
    for (const item of page as Record<string, any>[]) {
      const adminId = item.admin?.id ?? item.currentAdmin?.id;
      t.is(adminId, ours);
    }
  }
  const all = scopedEm(app.orm);
  t.true((await customerList(all).page({ limit: 1000 })).some((c) => c.admin.id === theirs));
});

test('the entities read this way pass the check of their property types', (t) => {
  for (const entity of ENTITIES) t.notThrows(() => assertPlainColumns(scopedEm(app.orm), entity));
});
