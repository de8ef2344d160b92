import { Migration } from '@mikro-orm/migrations';

// Commit positions without serialized commits. A transaction that recorded events took its position
// under one exclusive advisory lock held through its commit's WAL flush, so such commits waited for
// each other one flush at a time (no group commit): most of what the outbox cost ingestion.
//
// Now a committing transaction takes the lock *shared* and its position from a sequence, so commits
// run side by side. A position may then become visible before a smaller one (whose transaction is
// still committing) or never (its transaction failed at commit). A reader that needs every position
// up to n settled calls svc_event_settled_position(): it takes the lock exclusively, which waits for
// the commits holding it shared (the lock goes only once the commit is visible), and answers the
// last position taken; every position up to it is then visible or never will be. New commits wait
// for that moment only. Deliveries go up to that position (decisions.md "Events").
//
// A commit wakes a subscription's delivery job only when no job of it is waiting (an available job
// runs later and settles past this commit, which holds the lock shared until it is visible): the
// upsert of the job row locked it to the commit, so commits of events one subscription receives
// followed each other again. The wake comes after the position, as does every lock a commit takes
// after the shared one, so no commit holds a job row while it waits for the lock.
export class Migration20261127080000_event_positions extends Migration {

  override name = 'Migration20261127080000_event_positions';

  override up(): void | Promise<void> {
    this.addSql(`create sequence svc_event_position as bigint;`);
    this.addSql(`select setval('svc_event_position', coalesce((select max(position) from svc_event_commit), 0) + 1, false);`);
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
    // Called outside a transaction (the lock is held to the end of the caller's transaction).
    this.addSql(`create function svc_event_settled_position() returns bigint language plpgsql as $$
      declare
        settled bigint;
      begin
        perform pg_advisory_xact_lock(736400117);
        select case when is_called then last_value else last_value - 1 end into settled from svc_event_position;
        return settled;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function svc_event_settled_position();`);
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
    this.addSql(`drop sequence svc_event_position;`);
  }

}
