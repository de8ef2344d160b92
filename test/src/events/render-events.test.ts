// Event data is rendered by kind for a whole transaction: the set-based writers' batches (sessions,
// pricing results, boxes) cost the same statements for 5 events as for 50, not one render per row;
// and every kind either has a renderer (its GET) or is listed as carrying only what identifies it.
import test from 'ava';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration } = await import('../../helpers/factories.ts');
const { pricedSubscription, processed, sessionBody, submitSession } = await import('../../helpers/session-factories.ts');
const { countQueries } = await import('../../helpers/sql-count.ts');
const { EVENT_KINDS } = await import('../../../src/events/event-kinds.ts');
const { renderEvents, renderedKinds } = await import('../../../src/events/event-renderers.ts');
const { IDENTIFIED_ONLY } = await import('../../../rest/events/event-renderers.ts');
const { scopedEm } = await import('../../../src/access/admin-scope.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('every kind has a renderer or is listed as identified only', (t) => {
  t.deepEqual([...renderedKinds(), ...IDENTIFIED_ONLY].sort(), [...EVENT_KINDS].sort());
});

test('sessions and their pricing results render in the same statements for 5 events as for 50', async (t) => {
  const admin = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, admin);
  const sessions = [];
  for (let i = 0; i < 50; i++) sessions.push(await submitSession(app, sessionBody(evcoId, { start_date_time: `2026-03-0${1 + (i % 9)}T10:00:00+01:00`, end_date_time: `2026-03-0${1 + (i % 9)}T11:00:00+01:00` })));
  for (const s of sessions) await processed(app, s.id);
  const events = await app.orm.em.fork().execute<{ id: string; kind: string; resource_id: string; modification: string }[]>(
    `select id::text, kind, resource_id, modification from svc_event where kind in ('msp_charge_session', 'msp_charge_session_priced', 'billing_box') order by id`);
  const pick = (n: number) => ['msp_charge_session', 'msp_charge_session_priced'].flatMap((kind) => events.filter((e) => e.kind === kind).slice(0, n));
  const statements = async (n: number) => {
    const em = scopedEm(app.orm);
    let rendered = new Map<string, unknown>();
    const queries = await countQueries(app.orm, async () => { rendered = await renderEvents(em, pick(n)); });
    t.is(rendered.size, pick(n).length);
    t.true([...rendered.values()].every((data) => Object.keys(data as object).length > 1), 'rendered, not only identified');
    return queries.length;
  };
  t.is(await statements(50), await statements(5));
});

test.serial('a transaction recording more events than one chunk renders every one, in chunks of RENDER_CHUNK', async (t) => {
  const { noteEventsWritten, RENDER_CHUNK } = await import('../../../src/events/record-events.ts');
  const { recordEventRows } = await import('../../../src/events/event-sql.ts');
  const { createCustomer } = await import('../../helpers/factories.ts');
  const admin = (await createAdministration(app)).id;
  const customer = await createCustomer(app, admin);
  const events = (prefix: string) => Array.from({ length: 2 * RENDER_CHUNK + 3 }, (_, i) => ({
    kind: 'customer' as const, resource_id: `00000000-0000-7000-${prefix}-${String(i).padStart(12, '0')}`, modification: 'delete' as const, admin_id: admin,
  }));
  const stored = async (gone: { resource_id: string }[]) => {
    const rows = await app.orm.em.fork().execute<{ resource_id: string; data: Record<string, unknown> | null }[]>(
      `select resource_id, data from svc_event where admin_id = ? and kind = 'customer' and modification <> 'create' order by id`, [admin]);
    const ids = new Set(gone.map((e) => e.resource_id));
    const mine = rows.filter((r) => ids.has(r.resource_id) || r.resource_id === customer.id);
    t.is(mine.length, gone.length + 1);
    t.deepEqual(mine.slice(0, gone.length).map((r) => r.data), gone.map((e) => ({ id: e.resource_id })));
    t.is(mine[gone.length].data?.name, customer.name);
    await app.orm.em.fork().execute(`delete from svc_event where admin_id = ? and kind = 'customer' and modification <> 'create'`, [admin]);
  };

  // Inserted without their data, as the billing core's statements insert box events: rendered at the commit.
  const pending = events('8000');
  let queries = await countQueries(app.orm, async () => {
    await scopedEm(app.orm).transactional(async (tx) => {
      // Deletes carry what identifies them; the customer's update, in the last chunk, is rendered by its GET.
      await tx.execute(`insert into svc_event (kind, resource_id, modification, admin_id, actor, occurred_at)
        select kind, resource_id, modification, admin_id, 'test', now() from json_to_recordset(?::json) as x(kind text, resource_id text, modification text, admin_id text)`,
      [JSON.stringify([...pending, { kind: 'customer', resource_id: customer.id, modification: 'update', admin_id: admin }])]);
      noteEventsWritten();
    });
  });
  t.is(queries.filter((q) => /from svc_event e\s+where e\.tx_id = txid_current\(\)/.test(q)).length, 3, 'one look-up of pending events per chunk');
  await stored(pending);

  // Recorded by a set-based writer without their data: rendered as they are recorded, a chunk at a time.
  const recorded = events('9000');
  queries = await countQueries(app.orm, async () => {
    await scopedEm(app.orm).transactional(async (tx) => {
      await recordEventRows(tx, [...recorded, { kind: 'customer', resource_id: customer.id, modification: 'update', admin_id: admin }]);
    });
  });
  t.is(queries.filter((q) => /insert into svc_event/.test(q)).length, 3, 'one insert per chunk');
  await stored(recorded);
});
