import { Migration } from '@mikro-orm/migrations';

export class Migration20261125163731_events extends Migration {

  override name = 'Migration20261125163731_events';

  override up(): void | Promise<void> {
    this.addSql(`create table "svc_event" ("id" bigserial primary key, "kind" varchar(255) not null, "resource_id" varchar(255) not null, "modification" text not null, "admin_id" varchar(255) null, "actor" varchar(255) not null, "changes" jsonb null, "occurred_at" timestamptz not null, "tx_id" bigint not null default txid_current());`);
    this.addSql(`create index "svc_event_admin_id_index" on "svc_event" ("admin_id");`);
    this.addSql(`create index "svc_event_kind_resource_id_id_index" on "svc_event" ("kind", "resource_id", "id");`);
    this.addSql(`create index "svc_event_tx_id_index" on "svc_event" ("tx_id");`);

    this.addSql(`create table "svc_event_commit" ("tx_id" bigint not null, "position" bigint null, "committed_at" timestamptz null, primary key ("tx_id"));`);
    this.addSql(`alter table "svc_event_commit" add constraint "svc_event_commit_position_unique" unique ("position");`);

    this.addSql(`create table "webhook_attempt" ("id" bigserial primary key, "subscription_id" uuid not null, "event_id" bigint not null, "attempt" int not null, "succeeded" boolean not null, "status_code" int null, "error" text null, "duration_ms" int not null, "attempted_at" timestamptz not null);`);
    this.addSql(`create index "webhook_attempt_subscription_id_id_index" on "webhook_attempt" ("subscription_id", "id");`);

    this.addSql(`create table "webhook_subscription" ("id" uuid not null, "url" text not null, "kinds" jsonb not null, "admin_ids" jsonb null, "all_admins" boolean not null default false, "secret_ciphertext" text not null, "disabled" boolean not null default false, "disabled_reason" varchar(255) null, "external_reference" citext null, "last_position" bigint not null, "last_event_id" bigint not null default '0', "consecutive_failures" int not null default 0, "failing_since" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "webhook_subscription" add constraint "webhook_subscription_external_reference_unique" unique ("external_reference");`);




    this.addSql(`alter table "svc_event" add constraint "svc_event_modification_check" check ("modification" in ('create', 'update', 'delete'));`);
    // Each transaction that records events writes one svc_event_commit row (a statement trigger on
    // svc_event). At its commit a deferred trigger on that row gives it the next position under a
    // transaction-level advisory lock, held only for the commit, so positions follow commit order
    // (a reader that has seen position n never later finds a smaller one); committed_at is that
    // moment. Then the delivery job of every enabled subscription the transaction's events concern
    // is woken in the same transaction (a crash after the commit still delivers; a rollback wakes
    // nobody); a job waiting for its back-off keeps its time (preserve_run_at).
    this.addSql(`create function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        insert into svc_event_commit (tx_id) values (txid_current()) on conflict (tx_id) do nothing;
        return null;
      end $$;`);
    this.addSql(`create trigger svc_event_commit_marker after insert on "svc_event" for each statement execute function svc_event_commit_marker();`);
    this.addSql(`create function svc_event_commit_order() returns trigger language plpgsql as $$
      begin
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
    this.addSql(`create constraint trigger svc_event_commit_order after insert on "svc_event_commit" deferrable initially deferred
      for each row execute function svc_event_commit_order();`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "svc_event" cascade;`);
    this.addSql(`drop function if exists svc_event_commit_marker();`);
    this.addSql(`drop table if exists "svc_event_commit" cascade;`);
    this.addSql(`drop function if exists svc_event_commit_order();`);
    this.addSql(`drop table if exists "webhook_attempt" cascade;`);
    this.addSql(`drop table if exists "webhook_subscription" cascade;`);



  }

}
