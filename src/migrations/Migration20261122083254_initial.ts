import { Migration } from '@mikro-orm/migrations';

export class Migration20261122083254_initial extends Migration {

  override name = 'Migration20261122083254_initial';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists citext;`);
    this.addSql(`create table "credential" ("id" uuid not null, "public_id" citext not null, "secret_hash" varchar(255) not null, "role" text not null default 'admin', "admin_ids" text[] not null default '{}', "rate_limit_per_minute" int null, "revoked_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "credential" add constraint "credential_public_id_unique" unique ("public_id");`);

    this.addSql(`create table "instance_settings" ("id" serial primary key, "name" varchar(255) not null, "roaming_enabled" boolean not null default false, "updated_at" timestamptz not null);`);

    this.addSql(`create table "roaming_partner" ("id" uuid not null, "name" varchar(255) not null, "country" varchar(2) not null, "cpo_ids" text[] not null default '{}', "msp_ids" text[] not null default '{}', "billing_email" varchar(255) null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "roaming_partner" add constraint "roaming_partner_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "seller" ("id" uuid not null, "name" varchar(255) not null, "country" varchar(2) not null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "seller" add constraint "seller_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "administration" ("id" citext not null, "name" varchar(255) not null, "currency" varchar(3) not null, "country" varchar(2) not null, "locale_id" varchar(255) null, "seller_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "end_user" ("id" uuid not null, "admin_id" citext not null, "username" citext not null, "email" citext null, "name" varchar(255) null, "locale_id" varchar(255) null, "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "end_user_admin_id_index" on "end_user" ("admin_id");`);
    this.addSql(`alter table "end_user" add constraint "end_user_username_unique" unique ("username");`);
    this.addSql(`alter table "end_user" add constraint "end_user_email_unique" unique ("email");`);
    this.addSql(`alter table "end_user" add constraint "end_user_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "customer" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "country" varchar(2) not null, "entity_type" text not null default 'person', "external_reference" citext null, "company_reg_num" varchar(255) null, "locale_id" varchar(255) null, "billing_email" varchar(255) null, "reimbursement_vat" text not null default 'Unknown', "billing_rollup_group_by" text null, "custom_fields" jsonb not null, "charge_auth_blocked" boolean not null default false, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "customer_admin_id_index" on "customer" ("admin_id");`);
    this.addSql(`alter table "customer" add constraint "customer_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "direct_debit_mandate" ("id" uuid not null, "customer_id" uuid not null, "admin_id" citext not null, "bank_account_name" varchar(255) not null, "iban" varchar(34) not null, "bic" varchar(11) null, "mandate_reference" varchar(255) null, "signed_at" timestamptz null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "defunct" boolean not null default false, "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "direct_debit_mandate_customer_id_index" on "direct_debit_mandate" ("customer_id");`);
    this.addSql(`alter table "direct_debit_mandate" add constraint "direct_debit_mandate_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "end_user_customer_authorization" ("id" uuid not null, "end_user_id" uuid not null, "customer_id" uuid not null, "admin_id" citext not null, "role" text not null default 'owner', "valid_from" timestamptz null, "valid_until" timestamptz null, "defunct" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "end_user_customer_authorization_customer_id_index" on "end_user_customer_authorization" ("customer_id");`);
    this.addSql(`create unique index "end_user_customer_authorization_valid_pair_unique" on "end_user_customer_authorization" ("end_user_id", "customer_id") where "defunct" = false;`);

    this.addSql(`create table "billing_address" ("id" uuid not null, "customer_id" uuid not null, "admin_id" citext not null, "addressee" varchar(255) null, "address_line1" varchar(255) null, "address_line2" varchar(255) null, "postal_code" varchar(255) null, "city" varchar(255) null, "region" varchar(255) null, "country" varchar(2) null, "billing_phone" varchar(40) null, "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_address_customer_id_index" on "billing_address" ("customer_id");`);
    this.addSql(`alter table "billing_address" add constraint "billing_address_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "msp_subscription_plan" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "description" text null, "publish_from" timestamptz null, "publish_until" timestamptz null, "rate_plan_id" uuid null, "recurring_costs" jsonb not null, "use_customer_reimbursement_vat" boolean not null default false, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_subscription_plan_admin_id_index" on "msp_subscription_plan" ("admin_id");`);
    this.addSql(`alter table "msp_subscription_plan" add constraint "msp_subscription_plan_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "msp_token_brand" ("code" citext not null, "name" varchar(255) not null, "created_at" timestamptz not null, primary key ("code"));`);

    this.addSql(`create table "msp_token_series" ("id" uuid not null, "admin_id" citext not null, "name" varchar(255) not null, "evco_prefix" citext not null, "instance_width" int not null default 9, "next_number" bigint not null default '1', "form_factor" text not null default 'card', "uid_type" text null, "brand_code" varchar(255) null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_token_series_admin_id_index" on "msp_token_series" ("admin_id");`);
    this.addSql(`alter table "msp_token_series" add constraint "msp_token_series_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "msp_token" ("id" uuid not null, "evco_id" citext not null, "uid" citext null, "uid_type" text null, "form_factor" text not null default 'card', "brand_code" varchar(255) null, "series_id" uuid null, "initial_admin_id" citext not null, "current_admin_id" citext not null, "charge_auth_blocked" boolean not null default false, "fulfilment" text not null default 'none', "activated_at" timestamptz null, "vehicle_vin" varchar(255) null, "first_linked_at" timestamptz null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_evco_id_unique" unique ("evco_id");`);
    this.addSql(`create index "msp_token_uid_index" on "msp_token" ("uid");`);
    this.addSql(`create index "msp_token_current_admin_id_index" on "msp_token" ("current_admin_id");`);

    this.addSql(`create table "msp_token_subscription" ("id" uuid not null, "admin_id" citext not null, "customer_id" uuid not null, "plan_id" uuid not null, "buyer_reference" varchar(255) null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "defunct" boolean not null default false, "custom_fields" jsonb not null, "monetary_credit_balance" numeric(20,6) not null default '0', "external_reference" citext null, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_token_subscription_admin_id_index" on "msp_token_subscription" ("admin_id");`);
    this.addSql(`create index "msp_token_subscription_customer_id_index" on "msp_token_subscription" ("customer_id");`);
    this.addSql(`create index "msp_token_subscription_plan_id_index" on "msp_token_subscription" ("plan_id");`);
    this.addSql(`alter table "msp_token_subscription" add constraint "msp_token_subscription_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "msp_token_link" ("id" uuid not null, "admin_id" citext not null, "subscription_id" uuid not null, "token_id" uuid not null, "valid_from" timestamptz null, "valid_until" timestamptz null, "defunct" boolean not null default false, "external_updated_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_token_link_subscription_id_index" on "msp_token_link" ("subscription_id");`);
    this.addSql(`create index "msp_token_link_token_id_index" on "msp_token_link" ("token_id");`);

    this.addSql(`create table "msp_subscription_correction" ("id" uuid not null, "admin_id" citext not null, "old_subscription_id" uuid not null, "new_subscription_id" uuid not null, "corrected_from" timestamptz not null, "recurring_cost_correction" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_subscription_correction_old_subscription_id_index" on "msp_subscription_correction" ("old_subscription_id");`);
    this.addSql(`create index "msp_subscription_correction_new_subscription_id_index" on "msp_subscription_correction" ("new_subscription_id");`);

    this.addSql(`create table "msp_monetary_credit" ("id" uuid not null, "admin_id" citext not null, "subscription_id" uuid not null, "kind" text not null, "amount" numeric(20,6) not null, "balance_after" numeric(20,6) not null, "description" varchar(255) null, "session_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_monetary_credit_subscription_id_index" on "msp_monetary_credit" ("subscription_id");`);

    this.addSql(`alter table "credential" add constraint "credential_role_check" check ("role" in ('admin', 'readonly', 'app'));`);

    this.addSql(`alter table "administration" add constraint "administration_seller_id_foreign" foreign key ("seller_id") references "seller" ("id") on delete set null;`);

    this.addSql(`alter table "end_user" add constraint "end_user_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "customer" add constraint "customer_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "customer" add constraint "customer_entity_type_check" check ("entity_type" in ('person', 'organisation'));`);
    this.addSql(`alter table "customer" add constraint "customer_reimbursement_vat_check" check ("reimbursement_vat" in ('Applies', 'Exempt', 'Unknown'));`);
    this.addSql(`alter table "customer" add constraint "customer_billing_rollup_group_by_check" check ("billing_rollup_group_by" in ('product', 'subscription', 'token'));`);

    this.addSql(`alter table "direct_debit_mandate" add constraint "direct_debit_mandate_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);
    this.addSql(`alter table "direct_debit_mandate" add constraint "direct_debit_mandate_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "end_user_customer_authorization" add constraint "end_user_customer_authorization_end_user_id_foreign" foreign key ("end_user_id") references "end_user" ("id");`);
    this.addSql(`alter table "end_user_customer_authorization" add constraint "end_user_customer_authorization_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);
    this.addSql(`alter table "end_user_customer_authorization" add constraint "end_user_customer_authorization_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "end_user_customer_authorization" add constraint "end_user_customer_authorization_role_check" check ("role" in ('owner', 'manager', 'viewer'));`);

    this.addSql(`alter table "billing_address" add constraint "billing_address_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);
    this.addSql(`alter table "billing_address" add constraint "billing_address_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "msp_subscription_plan" add constraint "msp_subscription_plan_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "msp_token_series" add constraint "msp_token_series_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_token_series" add constraint "msp_token_series_form_factor_check" check ("form_factor" in ('card', 'keychain', 'sticker', 'virtual', 'plug_and_charge'));`);
    this.addSql(`alter table "msp_token_series" add constraint "msp_token_series_uid_type_check" check ("uid_type" in ('rfid_4byte', 'rfid_7byte', 'rfid_10byte', 'emaid', 'app_user'));`);

    this.addSql(`alter table "msp_token" add constraint "msp_token_series_id_foreign" foreign key ("series_id") references "msp_token_series" ("id") on delete set null;`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_initial_admin_id_foreign" foreign key ("initial_admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_current_admin_id_foreign" foreign key ("current_admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_uid_type_check" check ("uid_type" in ('rfid_4byte', 'rfid_7byte', 'rfid_10byte', 'emaid', 'app_user'));`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_form_factor_check" check ("form_factor" in ('card', 'keychain', 'sticker', 'virtual', 'plug_and_charge'));`);
    this.addSql(`alter table "msp_token" add constraint "msp_token_fulfilment_check" check ("fulfilment" in ('none', 'requested', 'activated'));`);

    this.addSql(`alter table "msp_token_subscription" add constraint "msp_token_subscription_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_token_subscription" add constraint "msp_token_subscription_customer_id_foreign" foreign key ("customer_id") references "customer" ("id");`);
    this.addSql(`alter table "msp_token_subscription" add constraint "msp_token_subscription_plan_id_foreign" foreign key ("plan_id") references "msp_subscription_plan" ("id");`);

    this.addSql(`alter table "msp_token_link" add constraint "msp_token_link_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_token_link" add constraint "msp_token_link_subscription_id_foreign" foreign key ("subscription_id") references "msp_token_subscription" ("id");`);
    this.addSql(`alter table "msp_token_link" add constraint "msp_token_link_token_id_foreign" foreign key ("token_id") references "msp_token" ("id");`);

    this.addSql(`alter table "msp_subscription_correction" add constraint "msp_subscription_correction_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_subscription_correction" add constraint "msp_subscription_correction_old_subscription_id_foreign" foreign key ("old_subscription_id") references "msp_token_subscription" ("id");`);
    this.addSql(`alter table "msp_subscription_correction" add constraint "msp_subscription_correction_new_subscription_id_foreign" foreign key ("new_subscription_id") references "msp_token_subscription" ("id");`);

    this.addSql(`alter table "msp_monetary_credit" add constraint "msp_monetary_credit_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "msp_monetary_credit" add constraint "msp_monetary_credit_subscription_id_foreign" foreign key ("subscription_id") references "msp_token_subscription" ("id");`);
    this.addSql(`alter table "msp_monetary_credit" add constraint "msp_monetary_credit_kind_check" check ("kind" in ('grant', 'correction', 'consumption'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "administration" drop constraint "administration_seller_id_foreign";`);
    this.addSql(`alter table "end_user" drop constraint "end_user_admin_id_foreign";`);
    this.addSql(`alter table "customer" drop constraint "customer_admin_id_foreign";`);
    this.addSql(`alter table "direct_debit_mandate" drop constraint "direct_debit_mandate_admin_id_foreign";`);
    this.addSql(`alter table "end_user_customer_authorization" drop constraint "end_user_customer_authorization_admin_id_foreign";`);
    this.addSql(`alter table "billing_address" drop constraint "billing_address_admin_id_foreign";`);
    this.addSql(`alter table "msp_subscription_plan" drop constraint "msp_subscription_plan_admin_id_foreign";`);
    this.addSql(`alter table "msp_token_series" drop constraint "msp_token_series_admin_id_foreign";`);
    this.addSql(`alter table "msp_token" drop constraint "msp_token_initial_admin_id_foreign";`);
    this.addSql(`alter table "msp_token" drop constraint "msp_token_current_admin_id_foreign";`);
    this.addSql(`alter table "msp_token_subscription" drop constraint "msp_token_subscription_admin_id_foreign";`);
    this.addSql(`alter table "msp_token_link" drop constraint "msp_token_link_admin_id_foreign";`);
    this.addSql(`alter table "msp_subscription_correction" drop constraint "msp_subscription_correction_admin_id_foreign";`);
    this.addSql(`alter table "msp_monetary_credit" drop constraint "msp_monetary_credit_admin_id_foreign";`);
    this.addSql(`alter table "end_user_customer_authorization" drop constraint "end_user_customer_authorization_end_user_id_foreign";`);
    this.addSql(`alter table "direct_debit_mandate" drop constraint "direct_debit_mandate_customer_id_foreign";`);
    this.addSql(`alter table "end_user_customer_authorization" drop constraint "end_user_customer_authorization_customer_id_foreign";`);
    this.addSql(`alter table "billing_address" drop constraint "billing_address_customer_id_foreign";`);
    this.addSql(`alter table "msp_token_subscription" drop constraint "msp_token_subscription_customer_id_foreign";`);
    this.addSql(`alter table "msp_token_subscription" drop constraint "msp_token_subscription_plan_id_foreign";`);
    this.addSql(`alter table "msp_token" drop constraint "msp_token_series_id_foreign";`);
    this.addSql(`alter table "msp_token_link" drop constraint "msp_token_link_token_id_foreign";`);
    this.addSql(`alter table "msp_token_link" drop constraint "msp_token_link_subscription_id_foreign";`);
    this.addSql(`alter table "msp_subscription_correction" drop constraint "msp_subscription_correction_old_subscription_id_foreign";`);
    this.addSql(`alter table "msp_subscription_correction" drop constraint "msp_subscription_correction_new_subscription_id_foreign";`);
    this.addSql(`alter table "msp_monetary_credit" drop constraint "msp_monetary_credit_subscription_id_foreign";`);

    this.addSql(`drop table if exists "credential" cascade;`);
    this.addSql(`drop table if exists "instance_settings" cascade;`);
    this.addSql(`drop table if exists "roaming_partner" cascade;`);
    this.addSql(`drop table if exists "seller" cascade;`);
    this.addSql(`drop table if exists "administration" cascade;`);
    this.addSql(`drop table if exists "end_user" cascade;`);
    this.addSql(`drop table if exists "customer" cascade;`);
    this.addSql(`drop table if exists "direct_debit_mandate" cascade;`);
    this.addSql(`drop table if exists "end_user_customer_authorization" cascade;`);
    this.addSql(`drop table if exists "billing_address" cascade;`);
    this.addSql(`drop table if exists "msp_subscription_plan" cascade;`);
    this.addSql(`drop table if exists "msp_token_brand" cascade;`);
    this.addSql(`drop table if exists "msp_token_series" cascade;`);
    this.addSql(`drop table if exists "msp_token" cascade;`);
    this.addSql(`drop table if exists "msp_token_subscription" cascade;`);
    this.addSql(`drop table if exists "msp_token_link" cascade;`);
    this.addSql(`drop table if exists "msp_subscription_correction" cascade;`);
    this.addSql(`drop table if exists "msp_monetary_credit" cascade;`);
  }

}
