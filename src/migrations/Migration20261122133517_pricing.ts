import { Migration } from '@mikro-orm/migrations';

export class Migration20261122133517_pricing extends Migration {

  override name = 'Migration20261122133517_pricing';

  override up(): void | Promise<void> {
    this.addSql(`create table "pricing_rate_plan" ("id" uuid not null, "name" varchar(255) not null, "currency" varchar(3) not null, "admin_ids" jsonb not null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "pricing_rate_plan_currency_index" on "pricing_rate_plan" ("currency");`);
    this.addSql(`alter table "pricing_rate_plan" add constraint "pricing_rate_plan_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "pricing_rate_plan_version" ("id" uuid not null, "rate_plan_id" uuid not null, "valid_from" timestamptz not null, "definition" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "pricing_rate_plan_version" add constraint "pricing_rate_plan_version_rate_plan_id_valid_from_unique" unique ("rate_plan_id", "valid_from");`);

    this.addSql(`create table "pricing_vat_rate" ("id" uuid not null, "country" varchar(2) not null, "vat_kind" text not null, "percentage" numeric(12,6) not null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "pricing_vat_rate_country_vat_kind_valid_from_index" on "pricing_vat_rate" ("country", "vat_kind", "valid_from");`);

    this.addSql(`alter table "instance_settings" alter column "id" set default 1;`);

    this.addSql(`alter table "pricing_rate_plan_version" add constraint "pricing_rate_plan_version_rate_plan_id_foreign" foreign key ("rate_plan_id") references "pricing_rate_plan" ("id");`);

    this.addSql(`alter table "pricing_vat_rate" add constraint "pricing_vat_rate_vat_kind_check" check ("vat_kind" in ('standard', 'reduced', 'exempt', 'reverse_charge'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "pricing_rate_plan_version" drop constraint "pricing_rate_plan_version_rate_plan_id_foreign";`);

    this.addSql(`drop table if exists "pricing_rate_plan" cascade;`);
    this.addSql(`drop table if exists "pricing_rate_plan_version" cascade;`);
    this.addSql(`drop table if exists "pricing_vat_rate" cascade;`);

    this.addSql(`alter table "instance_settings" alter column "id" drop default;`);
  }

}
