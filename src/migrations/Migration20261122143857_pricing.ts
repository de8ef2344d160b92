import { Migration } from '@mikro-orm/migrations';

export class Migration20261122143857_pricing extends Migration {

  override name = 'Migration20261122143857_pricing';

  override up(): void | Promise<void> {
    this.addSql(`create table "pricing_rate_plan" ("id" uuid not null, "name" varchar(255) not null, "currency" varchar(3) not null, "admin_ids" jsonb not null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "pricing_rate_plan_currency_index" on "pricing_rate_plan" ("currency");`);
    this.addSql(`alter table "pricing_rate_plan" add constraint "pricing_rate_plan_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "pricing_rate_plan_version" ("id" uuid not null, "rate_plan_id" uuid not null, "valid_from" timestamptz not null, "definition" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "pricing_rate_plan_version" add constraint "pricing_rate_plan_version_rate_plan_id_valid_from_unique" unique ("rate_plan_id", "valid_from");`);

    this.addSql(`create table "cpo_evse" ("id" uuid not null, "admin_id" citext not null, "evse_uid" citext not null, "evse_id" varchar(255) null, "evse_id_normalized" varchar(255) null, "connectors" jsonb not null, "dropout_all_chargesessions" boolean not null default false, "reimbursement_mandatory" boolean not null default false, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_evse_admin_id_index" on "cpo_evse" ("admin_id");`);
    this.addSql(`alter table "cpo_evse" add constraint "cpo_evse_evse_uid_unique" unique ("evse_uid");`);
    this.addSql(`create index "cpo_evse_evse_id_normalized_index" on "cpo_evse" ("evse_id_normalized");`);

    this.addSql(`create table "msp_dropout_case" ("id" uuid not null, "admin_id" citext null, "reason" varchar(255) not null, "group_key" varchar(255) not null, "open_key" varchar(255) null, "message" text not null, "status" text not null default 'open', "session_count" int not null default 0, "resolution" text null, "resolved_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_dropout_case_admin_id_index" on "msp_dropout_case" ("admin_id");`);
    this.addSql(`alter table "msp_dropout_case" add constraint "msp_dropout_case_open_key_unique" unique ("open_key");`);

    this.addSql(`create table "cpo_reimbursement_arrangement" ("id" uuid not null, "admin_id" citext not null, "customer_id" uuid not null, "buyer_reference" varchar(255) null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "defunct" boolean not null default false, "custom_fields" jsonb not null, "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_reimbursement_arrangement_admin_id_index" on "cpo_reimbursement_arrangement" ("admin_id");`);
    this.addSql(`create index "cpo_reimbursement_arrangement_customer_id_index" on "cpo_reimbursement_arrangement" ("customer_id");`);
    this.addSql(`alter table "cpo_reimbursement_arrangement" add constraint "cpo_reimbursement_arrangement_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "cpo_reimbursement_link" ("id" uuid not null, "admin_id" citext not null, "arrangement_id" uuid not null, "evse_id" uuid not null, "valid_from" timestamptz null, "valid_until" timestamptz null, "defunct" boolean not null default false, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_reimbursement_link_arrangement_id_index" on "cpo_reimbursement_link" ("arrangement_id");`);
    this.addSql(`create index "cpo_reimbursement_link_evse_id_index" on "cpo_reimbursement_link" ("evse_id");`);

    this.addSql(`create table "msp_charge_session" ("id" uuid not null, "source" text not null, "identity_key" citext not null, "session_id" varchar(255) not null, "cpo_id" varchar(255) null, "evco_id" citext not null, "start_at" timestamptz not null, "end_at" timestamptz not null, "energy_kwh" numeric(20,6) not null, "idle_seconds" int not null default 0, "time_zone" varchar(255) not null, "country" varchar(2) not null, "evse_id" varchar(255) null, "evse_uid" varchar(255) null, "payload" jsonb not null, "received_at" timestamptz not null, "status" text not null, "admin_id" citext null, "token_id" uuid null, "subscription_id" uuid null, "customer_id" uuid null, "bypass_checks" jsonb not null, "dropout_case_id" uuid null, "dropout_reason" varchar(255) null, "dropout_message" text null, "pricing_version" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_identity_key_unique" unique ("identity_key");`);
    this.addSql(`create index "msp_charge_session_admin_id_index" on "msp_charge_session" ("admin_id");`);
    this.addSql(`create index "msp_charge_session_dropout_case_id_index" on "msp_charge_session" ("dropout_case_id");`);
    this.addSql(`create index "msp_charge_session_status_id_index" on "msp_charge_session" ("status", "id");`);
    this.addSql(`create index "msp_charge_session_subscription_id_start_at_index" on "msp_charge_session" ("subscription_id", "start_at");`);

    this.addSql(`create table "msp_pricing_result" ("id" uuid not null, "session_id" uuid not null, "version" int not null, "admin_id" citext not null, "customer_id" uuid not null, "subscription_id" uuid not null, "subscription_external_reference" varchar(255) null, "token_evco_id" varchar(255) not null, "currency" varchar(3) not null, "rate_plan_id" uuid not null, "rate_plan_version_id" uuid not null, "rule" jsonb not null, "subtotals" jsonb not null, "total_excl_vat" numeric(20,2) not null, "total_vat" numeric(20,2) not null, "total_incl_vat" numeric(20,2) not null, "credit_used" numeric(20,6) not null default '0', "annotations" jsonb not null, "explanation" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "msp_pricing_result" add constraint "msp_pricing_result_session_id_version_unique" unique ("session_id", "version");`);

    this.addSql(`create table "pricing_vat_rate" ("id" uuid not null, "country" varchar(2) not null, "vat_kind" text not null, "percentage" numeric(12,6) not null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "pricing_vat_rate_country_vat_kind_valid_from_index" on "pricing_vat_rate" ("country", "vat_kind", "valid_from");`);

    this.addSql(`alter table "instance_settings" alter column "id" set default 1;`);

    this.addSql(`alter table "msp_subscription_plan" add "credit_excluded_components" jsonb not null;`);

    this.addSql(`alter table "pricing_rate_plan_version" add constraint "pricing_rate_plan_version_rate_plan_id_foreign" foreign key ("rate_plan_id") references "pricing_rate_plan" ("id");`);

    this.addSql(`alter table "cpo_evse" add constraint "cpo_evse_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "msp_dropout_case" add constraint "msp_dropout_case_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`alter table "msp_dropout_case" add constraint "msp_dropout_case_status_check" check ("status" in ('open', 'resolved'));`);
    this.addSql(`alter table "msp_dropout_case" add constraint "msp_dropout_case_resolution_check" check ("resolution" in ('retry', 'bypass', 'discard'));`);

    this.addSql(`alter table "cpo_reimbursement_arrangement" add constraint "cpo_reimbursement_arrangement_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_reimbursement_arrangement" add constraint "cpo_reimbursement_arrangement_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);

    this.addSql(`alter table "cpo_reimbursement_link" add constraint "cpo_reimbursement_link_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_reimbursement_link" add constraint "cpo_reimbursement_link_arrangement_id_foreign" foreign key ("arrangement_id") references "cpo_reimbursement_arrangement" ("id");`);
    this.addSql(`alter table "cpo_reimbursement_link" add constraint "cpo_reimbursement_link_evse_id_foreign" foreign key ("evse_id") references "cpo_evse" ("id");`);

    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_dropout_case_id_foreign" foreign key ("dropout_case_id") references "msp_dropout_case" ("id") on delete set null;`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_source_check" check ("source" in ('charge_session', 'cpo_charge_session'));`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_status_check" check ("status" in ('received', 'priced', 'dropout', 'discarded'));`);

    this.addSql(`alter table "msp_pricing_result" add constraint "msp_pricing_result_session_id_foreign" foreign key ("session_id") references "msp_charge_session" ("id");`);
    this.addSql(`alter table "msp_pricing_result" add constraint "msp_pricing_result_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "pricing_vat_rate" add constraint "pricing_vat_rate_vat_kind_check" check ("vat_kind" in ('standard', 'reduced', 'exempt', 'reverse_charge'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "pricing_rate_plan_version" drop constraint "pricing_rate_plan_version_rate_plan_id_foreign";`);
    this.addSql(`alter table "cpo_reimbursement_link" drop constraint "cpo_reimbursement_link_evse_id_foreign";`);
    this.addSql(`alter table "msp_charge_session" drop constraint "msp_charge_session_dropout_case_id_foreign";`);
    this.addSql(`alter table "cpo_reimbursement_link" drop constraint "cpo_reimbursement_link_arrangement_id_foreign";`);
    this.addSql(`alter table "msp_pricing_result" drop constraint "msp_pricing_result_session_id_foreign";`);

    this.addSql(`drop table if exists "pricing_rate_plan" cascade;`);
    this.addSql(`drop table if exists "pricing_rate_plan_version" cascade;`);
    this.addSql(`drop table if exists "cpo_evse" cascade;`);
    this.addSql(`drop table if exists "msp_dropout_case" cascade;`);
    this.addSql(`drop table if exists "cpo_reimbursement_arrangement" cascade;`);
    this.addSql(`drop table if exists "cpo_reimbursement_link" cascade;`);
    this.addSql(`drop table if exists "msp_charge_session" cascade;`);
    this.addSql(`drop table if exists "msp_pricing_result" cascade;`);
    this.addSql(`drop table if exists "pricing_vat_rate" cascade;`);

    this.addSql(`alter table "instance_settings" alter column "id" drop default;`);

    this.addSql(`alter table "msp_subscription_plan" drop column "credit_excluded_components";`);
  }

}
