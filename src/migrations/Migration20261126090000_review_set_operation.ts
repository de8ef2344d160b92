import { Migration } from '@mikro-orm/migrations';

// A review-set close or approve runs as a job the request starts (decisions: "Running the service":
// a request waits at most 5 s for the database); its operation row is what the caller follows. No
// foreign key to the review-set: recording a request must not wait for a running close holding it.
// At most one close of a review-set is pending: a repeated request answers the pending one.

export class Migration20261126090000_review_set_operation extends Migration {

  override name = 'Migration20261126090000_review_set_operation';

  override up(): void | Promise<void> {
    this.addSql(`create table "billing_review_set_operation" ("id" uuid not null, "admin_id" citext not null, "review_set_id" uuid not null, "operation" text not null, "payment" jsonb null, "state" text not null default 'pending', "error_code" varchar(255) null, "error_message" text null, "requested_by" varchar(255) not null, "created_at" timestamptz not null, "finished_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "billing_review_set_operation_review_set_id_index" on "billing_review_set_operation" ("review_set_id");`);
    this.addSql(`create unique index "billing_review_set_operation_pending_close" on "billing_review_set_operation" ("review_set_id") where "operation" = 'close' and "state" = 'pending';`);
    this.addSql(`alter table "billing_review_set_operation" add constraint "billing_review_set_operation_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "billing_review_set_operation" cascade;`);
  }

}
