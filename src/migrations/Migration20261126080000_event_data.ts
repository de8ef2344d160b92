import { Migration } from '@mikro-orm/migrations';

// Events carry their `data` (the resource as its GET answered right after the change committed),
// rendered in the change's transaction (src/events/record-events.ts). With the setting
// `svc.require_event_data = on` (the test databases) a transaction whose events lack their data
// fails at commit: a writer that records events outside an ORM transaction is found by the suite.
export class Migration20261126080000_event_data extends Migration {

  override name = 'Migration20261126080000_event_data';

  override up(): void | Promise<void> {
    this.addSql(`alter table "svc_event" add column "data" jsonb null;`);
    // The retention job (src/events/event-data-retention.ts) looks only at events that still hold data.
    this.addSql(`create index "svc_event_with_data_index" on "svc_event" ("id") where "data" is not null;`);
    this.addSql(`create or replace function svc_event_commit_order() returns trigger language plpgsql as $$
      begin
        if current_setting('svc.require_event_data', true) = 'on'
          and exists (select 1 from svc_event e where e.tx_id = new.tx_id and e.data is null) then
          raise exception 'events of transaction % were recorded without their data', new.tx_id;
        end if;
        perform pg_advisory_xact_lock(736400117);
        update svc_event_commit set position = (select coalesce(max(position), 0) + 1 from svc_event_commit), committed_at = clock_timestamp()
          where tx_id = new.tx_id;
        if exists (select 1 from webhook_subscription where not disabled) then
          perform graphile_worker.add_job('webhook_deliver', json_build_object('subscription_id', s.id),
            job_key := 'webhook:' || s.id, job_key_mode := 'preserve_run_at')
          from webhook_subscription s
          where not s.disabled and exists (select 1 from svc_event e where e.tx_id = new.tx_id and s.kinds ? e.kind
            and ((s.admin_ids is null and s.all_admins) or (e.admin_id is not null and s.admin_ids ? e.admin_id)));
        end if;
        return null;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "svc_event" drop column "data";`);
  }

}
