// Webhook delivery as metrics read it (at scrape time): subscriptions delivering, failing (their
// last attempt failed) and disabled, and the backlog: the events after each enabled subscription's
// cursor that it is still to receive (its kinds and administrations, the order of
// deliver-webhooks.service.ts), counted up to BACKLOG_CAP per subscription.
import type { Em } from '../platform/orm.ts';

export const BACKLOG_CAP = 100_000;

export interface WebhookBacklog { delivering: number; failing: number; disabled: number; backlogEvents: number }

const BACKLOG = `select
    count(*) filter (where not s.disabled and s.failing_since is null)::int as delivering,
    count(*) filter (where not s.disabled and s.failing_since is not null)::int as failing,
    count(*) filter (where s.disabled)::int as disabled,
    coalesce(sum(b.n) filter (where not s.disabled), 0)::int as backlog_events
  from webhook_subscription s
  cross join lateral (select count(*) as n from (select 1 from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
      where not s.disabled and c.position is not null
        and (c.position > s.last_position or (c.position = s.last_position and e.id > s.last_event_id))
        and s.kinds @> jsonb_build_array(e.kind)
        and ((s.admin_ids is null and s.all_admins) or (e.admin_id is not null and s.admin_ids @> jsonb_build_array(e.admin_id)))
      limit ${BACKLOG_CAP}) x) b`;

export async function webhookBacklog(em: Em): Promise<WebhookBacklog> {
  const [row] = await em.execute<{ delivering: number; failing: number; disabled: number; backlog_events: number }[]>(BACKLOG);
  return { delivering: row?.delivering ?? 0, failing: row?.failing ?? 0, disabled: row?.disabled ?? 0, backlogEvents: row?.backlog_events ?? 0 };
}
