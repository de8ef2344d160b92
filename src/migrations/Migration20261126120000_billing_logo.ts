import { Migration } from '@mikro-orm/migrations';

// An administration's logo on its billing documents (PNG or SVG, at most 1 MB), uploaded as raw
// bytes like documents; one row per administration.
export class Migration20261126120000_billing_logo extends Migration {

  override name = 'Migration20261126120000_billing_logo';

  override up(): void | Promise<void> {
    this.addSql(`create table "billing_logo" ("admin_id" citext not null, "content_type" varchar(255) not null, "size" int not null, "bytes" bytea not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("admin_id"));`);
    this.addSql(`alter table "billing_logo" add constraint "billing_logo_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "billing_logo" cascade;`);
  }

}
