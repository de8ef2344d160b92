import { Migration } from '@mikro-orm/migrations';

export class Migration20261124142609_cpo_side extends Migration {

  override name = 'Migration20261124142609_cpo_side';

  override up(): void | Promise<void> {
    this.addSql(`create table "cpo_reimbursement_plan" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "description" text null, "mode" text not null default 'calculated', "components" jsonb not null, "publish_from" timestamptz null, "publish_until" timestamptz null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_reimbursement_plan_admin_id_index" on "cpo_reimbursement_plan" ("admin_id");`);
    this.addSql(`alter table "cpo_reimbursement_plan" add constraint "cpo_reimbursement_plan_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "cpo_evse_location" ("id" uuid not null, "admin_id" citext not null, "location_id" citext not null, "name" varchar(255) null, "street" varchar(255) null, "postal_code" varchar(255) null, "city" varchar(255) null, "country" varchar(2) null, "latitude" numeric(9,6) null, "longitude" numeric(9,6) null, "cpo_id" varchar(255) null, "time_zone" varchar(255) null, "deactivated_at" timestamptz null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_evse_location_admin_id_index" on "cpo_evse_location" ("admin_id");`);
    this.addSql(`alter table "cpo_evse_location" add constraint "cpo_evse_location_location_id_unique" unique ("location_id");`);

    this.addSql(`create table "cpo_evse_id_assignment" ("id" uuid not null, "evse_id" uuid not null, "held_evse_id" varchar(255) not null, "evse_id_normalized" varchar(255) not null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_evse_id_assignment_evse_id_index" on "cpo_evse_id_assignment" ("evse_id");`);
    this.addSql(`create index "cpo_evse_id_assignment_evse_id_normalized_valid_from_index" on "cpo_evse_id_assignment" ("evse_id_normalized", "valid_from");`);

    this.addSql(`create table "cpo_subscription_plan" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "description" text null, "publish_from" timestamptz null, "publish_until" timestamptz null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_subscription_plan_admin_id_index" on "cpo_subscription_plan" ("admin_id");`);
    this.addSql(`alter table "cpo_subscription_plan" add constraint "cpo_subscription_plan_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "cpo_subscription_plan_version" ("id" uuid not null, "plan_id" uuid not null, "valid_from" timestamptz not null, "recurring_costs" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "cpo_subscription_plan_version" add constraint "cpo_subscription_plan_version_plan_id_valid_from_unique" unique ("plan_id", "valid_from");`);

    this.addSql(`create table "cpo_subscription" ("id" uuid not null, "admin_id" citext not null, "customer_id" uuid not null, "plan_id" uuid not null, "buyer_reference" varchar(255) null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "defunct" boolean not null default false, "custom_fields" jsonb not null, "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_subscription_admin_id_index" on "cpo_subscription" ("admin_id");`);
    this.addSql(`create index "cpo_subscription_customer_id_index" on "cpo_subscription" ("customer_id");`);
    this.addSql(`create index "cpo_subscription_plan_id_index" on "cpo_subscription" ("plan_id");`);
    this.addSql(`alter table "cpo_subscription" add constraint "cpo_subscription_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "cpo_subscription_evse_link" ("id" uuid not null, "admin_id" citext not null, "subscription_id" uuid not null, "evse_id" uuid not null, "valid_from" timestamptz null, "valid_until" timestamptz null, "defunct" boolean not null default false, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_subscription_evse_link_subscription_id_index" on "cpo_subscription_evse_link" ("subscription_id");`);
    this.addSql(`create index "cpo_subscription_evse_link_evse_id_index" on "cpo_subscription_evse_link" ("evse_id");`);

    this.addSql(`create table "cpo_reimbursement_calculation_input" ("id" uuid not null, "admin_id" citext not null, "owner_kind" text not null, "owner_id" uuid not null, "valid_from" timestamptz not null, "component_type" varchar(255) not null, "var_name" varchar(255) not null default '', "value" numeric(20,6) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "cpo_reimbursement_calculation_input" add constraint "cpo_reimbursement_calculation_input_owner_kind_ow_a7074_unique" unique ("owner_kind", "owner_id", "valid_from", "component_type", "var_name");`);

    this.addSql(`alter table "cpo_evse" add "location_id" uuid null;`);
    this.addSql(`alter table "cpo_evse" add constraint "cpo_evse_location_id_foreign" foreign key ("location_id") references "cpo_evse_location" ("id") on delete set null;`);
    this.addSql(`create index "cpo_evse_location_id_index" on "cpo_evse" ("location_id");`);

    this.addSql(`alter table "cpo_reimbursement_arrangement" add "plan_id" uuid null;`);
    this.addSql(`alter table "cpo_reimbursement_arrangement" add constraint "cpo_reimbursement_arrangement_plan_id_foreign" foreign key ("plan_id") references "cpo_reimbursement_plan" ("id") on delete set null;`);
    this.addSql(`create index "cpo_reimbursement_arrangement_plan_id_index" on "cpo_reimbursement_arrangement" ("plan_id");`);



    this.addSql(`alter table "cpo_reimbursement_plan" add constraint "cpo_reimbursement_plan_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_reimbursement_plan" add constraint "cpo_reimbursement_plan_mode_check" check ("mode" in ('cpms_supplied', 'calculated'));`);

    this.addSql(`alter table "cpo_evse_location" add constraint "cpo_evse_location_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "cpo_evse_id_assignment" add constraint "cpo_evse_id_assignment_evse_id_foreign" foreign key ("evse_id") references "cpo_evse" ("id");`);

    this.addSql(`alter table "cpo_subscription_plan" add constraint "cpo_subscription_plan_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "cpo_subscription_plan_version" add constraint "cpo_subscription_plan_version_plan_id_foreign" foreign key ("plan_id") references "cpo_subscription_plan" ("id");`);

    this.addSql(`alter table "cpo_subscription" add constraint "cpo_subscription_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_subscription" add constraint "cpo_subscription_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);
    this.addSql(`alter table "cpo_subscription" add constraint "cpo_subscription_plan_id_foreign" foreign key ("plan_id") references "cpo_subscription_plan" ("id");`);

    this.addSql(`alter table "cpo_subscription_evse_link" add constraint "cpo_subscription_evse_link_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_subscription_evse_link" add constraint "cpo_subscription_evse_link_subscription_id_foreign" foreign key ("subscription_id") references "cpo_subscription" ("id");`);
    this.addSql(`alter table "cpo_subscription_evse_link" add constraint "cpo_subscription_evse_link_evse_id_foreign" foreign key ("evse_id") references "cpo_evse" ("id");`);

    this.addSql(`alter table "cpo_reimbursement_calculation_input" add constraint "cpo_reimbursement_calculation_input_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_reimbursement_calculation_input" add constraint "cpo_reimbursement_calculation_input_owner_kind_check" check ("owner_kind" in ('plan', 'arrangement'));`);

    // EVSEs configured before the history existed hold their EVSE ID from the start.
    this.addSql(`insert into "cpo_evse_id_assignment" ("id", "evse_id", "held_evse_id", "evse_id_normalized", "valid_from", "valid_until", "created_at")
      select svc_uuidv7(), "id", "evse_id", "evse_id_normalized", '1900-01-01T00:00:00Z', null, now() from "cpo_evse" where "evse_id_normalized" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "cpo_reimbursement_arrangement" drop constraint "cpo_reimbursement_arrangement_plan_id_foreign";`);
    this.addSql(`alter table "cpo_evse" drop constraint "cpo_evse_location_id_foreign";`);
    this.addSql(`alter table "cpo_subscription_plan_version" drop constraint "cpo_subscription_plan_version_plan_id_foreign";`);
    this.addSql(`alter table "cpo_subscription" drop constraint "cpo_subscription_plan_id_foreign";`);
    this.addSql(`alter table "cpo_subscription_evse_link" drop constraint "cpo_subscription_evse_link_subscription_id_foreign";`);

    this.addSql(`drop table if exists "cpo_reimbursement_plan" cascade;`);
    this.addSql(`drop table if exists "cpo_evse_location" cascade;`);
    this.addSql(`drop table if exists "cpo_evse_id_assignment" cascade;`);
    this.addSql(`drop table if exists "cpo_subscription_plan" cascade;`);
    this.addSql(`drop table if exists "cpo_subscription_plan_version" cascade;`);
    this.addSql(`drop table if exists "cpo_subscription" cascade;`);
    this.addSql(`drop table if exists "cpo_subscription_evse_link" cascade;`);
    this.addSql(`drop table if exists "cpo_reimbursement_calculation_input" cascade;`);


    this.addSql(`drop index "cpo_evse_location_id_index";`);
    this.addSql(`alter table "cpo_evse" drop column "location_id";`);

    this.addSql(`drop index "cpo_reimbursement_arrangement_plan_id_index";`);
    this.addSql(`alter table "cpo_reimbursement_arrangement" drop column "plan_id";`);

  }

}
