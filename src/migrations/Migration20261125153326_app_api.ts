import { Migration } from '@mikro-orm/migrations';

export class Migration20261125153326_app_api extends Migration {

  override name = 'Migration20261125153326_app_api';

  override up(): void | Promise<void> {
    this.addSql(`create table "end_user_site" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "is_default" boolean not null default false, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "end_user_site_admin_id_index" on "end_user_site" ("admin_id");`);
    this.addSql(`alter table "end_user_site" add constraint "end_user_site_external_reference_unique" unique ("external_reference");`);
    this.addSql(`create unique index "end_user_site_default_unique" on "end_user_site" ("admin_id") where "is_default" = true;`);

    this.addSql(`create table "end_user_subscription_authorization" ("id" uuid not null, "end_user_id" uuid not null, "subscription_id" uuid not null, "admin_id" citext not null, "role" text not null default 'driver', "valid_from" timestamptz null, "valid_until" timestamptz null, "defunct" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "end_user_subscription_authorization_subscription_id_index" on "end_user_subscription_authorization" ("subscription_id");`);
    this.addSql(`create unique index "end_user_subscription_authorization_valid_pair_unique" on "end_user_subscription_authorization" ("end_user_id", "subscription_id") where "defunct" = false;`);


    this.addSql(`alter table "credential" add "site_id" uuid null;`);

    this.addSql(`alter table "end_user" add "site_id" uuid null;`);
    this.addSql(`alter table "end_user" add constraint "end_user_site_id_foreign" foreign key ("site_id") references "end_user_site" ("id") on delete set null;`);
    this.addSql(`create index "end_user_site_id_index" on "end_user" ("site_id");`);



    this.addSql(`alter table "end_user_site" add constraint "end_user_site_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "end_user_subscription_authorization" add constraint "end_user_subscription_authorization_end_user_id_foreign" foreign key ("end_user_id") references "end_user" ("id");`);
    this.addSql(`alter table "end_user_subscription_authorization" add constraint "end_user_subscription_authorization_subscription_id_foreign" foreign key ("subscription_id") references "msp_token_subscription" ("id");`);
    this.addSql(`alter table "end_user_subscription_authorization" add constraint "end_user_subscription_authorization_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "end_user_subscription_authorization" add constraint "end_user_subscription_authorization_role_check" check ("role" in ('driver', 'manager'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "end_user" drop constraint "end_user_site_id_foreign";`);

    this.addSql(`drop table if exists "end_user_site" cascade;`);
    this.addSql(`drop table if exists "end_user_subscription_authorization" cascade;`);



    this.addSql(`alter table "credential" drop column "site_id";`);

    this.addSql(`drop index "end_user_site_id_index";`);
    this.addSql(`alter table "end_user" drop column "site_id";`);

  }

}
