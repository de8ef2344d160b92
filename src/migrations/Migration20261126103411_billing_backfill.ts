import { Migration } from '@mikro-orm/migrations';

// The progress of each administration's billing backfill (src/billing/billing-backfill.service.ts):
// one row per administration, its latest run, read by GET /billing-backfill, GraphQL
// billingBackfills, the metrics and the log.

export class Migration20261126103411_billing_backfill extends Migration {

  override name = 'Migration20261126103411_billing_backfill';

  override up(): void | Promise<void> {
    this.addSql(`create table "billing_backfill" ("id" uuid not null, "admin_id" citext not null, "state" text not null, "batches_done" int not null default 0, "batches_total" int not null default 0, "sessions_done" int not null default 0, "sessions_total" int not null default 0, "started_at" timestamptz null, "finished_at" timestamptz null, "error" text null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_backfill" add constraint "billing_backfill_admin_id_unique" unique ("admin_id");`);
    this.addSql(`alter table "billing_backfill" add constraint "billing_backfill_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_backfill" add constraint "billing_backfill_state_check" check ("state" in ('pending', 'running', 'done', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "billing_backfill" cascade;`);
  }

}
