// Stored event data is dropped once every subscription the event concerns has it (its cursor is
// past the event) and the event is older than SVC_EVENT_DATA_RETENTION_DAYS (default 30); the
// audit record (kind, resource, actor, changes) stays (decisions.md "Events"). A disabled
// subscription counts too: enabled again, it delivers from where it stopped. Runs hourly in the
// worker (EVENT_DATA_RETENTION), in batches.
import type { Em } from '../platform/orm.ts';

export const EVENT_DATA_RETENTION = 'event_data_retention';

const BATCH = 10_000;

export function retentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.SVC_EVENT_DATA_RETENTION_DAYS);
  return Number.isFinite(days) && days >= 0 ? days : 30;
}

const DROP = `update svc_event set data = null where id in (
  select e.id from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
  where e.data is not null and c.committed_at < now() - make_interval(secs => ?)
    and not exists (select 1 from webhook_subscription s
      where jsonb_exists(s.kinds, e.kind) and ((s.admin_ids is null and s.all_admins) or (e.admin_id is not null and jsonb_exists(s.admin_ids, e.admin_id)))
        and (s.last_position, s.last_event_id) < (c.position, e.id))
  order by e.id limit ${BATCH})`;

/** Drops what may be dropped; answers how many events lost their data. */
export async function dropDeliveredEventData(em: Em, days = retentionDays()): Promise<number> {
  let total = 0;
  for (;;) {
    const dropped = await em.getConnection().execute(DROP, [days * 86_400], 'run') as { affectedRows: number };
    total += dropped.affectedRows;
    if (dropped.affectedRows < BATCH) return total;
  }
}
