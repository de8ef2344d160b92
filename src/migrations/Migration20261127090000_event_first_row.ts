import { Migration } from '@mikro-orm/migrations';

// A transaction's commit row written once, at its commit. Before, a statement trigger on svc_event
// copied every row its statement inserted into a transition table (event data included) to learn
// whether there was one, inserted the transaction's svc_event_commit row without a position, and the
// deferred trigger on that row updated it at the commit: three steps and a row version per commit.
//
// Now the transaction's first event row is marked as it is inserted: a BEFORE trigger, called only
// while the transaction-local setting `svc.first_event` is empty, sets it to the row's id; the
// deferred constraint trigger on svc_event is queued only for the row of that id (both conditions
// are plain expressions, evaluated per row without a function call). At the commit it inserts the
// commit row with its position. A savepoint rolled back takes its setting and its queued trigger
// with it, so the next event marks again; a statement that inserts no event marks nothing.
export class Migration20261127090000_event_first_row extends Migration {

  override name = 'Migration20261127090000_event_first_row';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger svc_event_commit_marker on "svc_event";`);
    this.addSql(`drop function svc_event_commit_marker();`);
    this.addSql(`drop trigger svc_event_commit_order on "svc_event_commit";`);
    this.addSql(`create function svc_event_mark_first() returns trigger language plpgsql as $$
      begin
        perform set_config('svc.first_event', new.id::text, true);
        return new;
      end $$;`);
    this.addSql(`create trigger svc_event_mark_first before insert on "svc_event" for each row
      when (coalesce(current_setting('svc.first_event', true), '') = '') execute function svc_event_mark_first();`);
    this.addSql(`create or replace function svc_event_commit_order() returns trigger language plpgsql as $$
      begin
        if current_setting('svc.require_event_data', true) = 'on'
          and exists (select 1 from svc_event e where e.tx_id = new.tx_id and e.data is null) then
          raise exception 'events of transaction % were recorded without their data', new.tx_id;
        end if;
        perform pg_advisory_xact_lock_shared(736400117);
        insert into svc_event_commit (tx_id, position, committed_at) values (new.tx_id, nextval('svc_event_position'), clock_timestamp());
        if exists (select 1 from webhook_subscription where not disabled) then
          perform graphile_worker.add_job('webhook_deliver', json_build_object('subscription_id', s.id),
            job_key := 'webhook:' || s.id, job_key_mode := 'preserve_run_at')
          from webhook_subscription s
          where not s.disabled and exists (select 1 from svc_event e where e.tx_id = new.tx_id and s.kinds ? e.kind
            and ((s.admin_ids is null and s.all_admins) or (e.admin_id is not null and s.admin_ids ? e.admin_id)))
            and not exists (select 1 from graphile_worker._private_jobs j where j.key = 'webhook:' || s.id and j.is_available);
        end if;
        return null;
      end $$;`);
    this.addSql(`create constraint trigger svc_event_commit_order after insert on "svc_event" deferrable initially deferred
      for each row when (current_setting('svc.first_event', true) = new.id::text) execute function svc_event_commit_order();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger svc_event_commit_order on "svc_event";`);
    this.addSql(`drop trigger svc_event_mark_first on "svc_event";`);
    this.addSql(`drop function svc_event_mark_first();`);
    this.addSql(`create function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from inserted_events) then
          insert into svc_event_commit (tx_id) values (txid_current()) on conflict (tx_id) do nothing;
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger svc_event_commit_marker after insert on "svc_event" referencing new table as inserted_events
      for each statement execute function svc_event_commit_marker();`);
    this.addSql(`create or replace function svc_event_commit_order() returns trigger language plpgsql as $$
      begin
        if current_setting('svc.require_event_data', true) = 'on'
          and exists (select 1 from svc_event e where e.tx_id = new.tx_id and e.data is null) then
          raise exception 'events of transaction % were recorded without their data', new.tx_id;
        end if;
        perform pg_advisory_xact_lock_shared(736400117);
        update svc_event_commit set position = nextval('svc_event_position'), committed_at = clock_timestamp()
          where tx_id = new.tx_id;
        if exists (select 1 from webhook_subscription where not disabled) then
          perform graphile_worker.add_job('webhook_deliver', json_build_object('subscription_id', s.id),
            job_key := 'webhook:' || s.id, job_key_mode := 'preserve_run_at')
          from webhook_subscription s
          where not s.disabled and exists (select 1 from svc_event e where e.tx_id = new.tx_id and s.kinds ? e.kind
            and ((s.admin_ids is null and s.all_admins) or (e.admin_id is not null and s.admin_ids ? e.admin_id)))
            and not exists (select 1 from graphile_worker._private_jobs j where j.key = 'webhook:' || s.id and j.is_available);
        end if;
        return null;
      end $$;`);
    this.addSql(`create constraint trigger svc_event_commit_order after insert on "svc_event_commit" deferrable initially deferred
      for each row execute function svc_event_commit_order();`);
  }

}
