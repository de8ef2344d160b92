import { Migration } from '@mikro-orm/migrations';

export class Migration20261124125103_billing extends Migration {

  override name = 'Migration20261124125103_billing';

  override up(): void | Promise<void> {
    // UUIDv7 ids for rows written by set-based SQL: PostgreSQL 18's own uuidv7(), else the same layout built by hand.
    this.addSql(`do $do$ begin
      if current_setting('server_version_num')::int >= 180000 then
        create or replace function svc_uuidv7() returns uuid language sql volatile as 'select uuidv7()';
      else
        create or replace function svc_uuidv7() returns uuid language sql volatile as $$
          select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
            substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
        $$;
      end if;
    end $do$;`);
    this.addSql(`create table "billing_number_counter" ("series_id" uuid not null, "year" int not null, "last_number" int not null, primary key ("series_id", "year"));`);

    this.addSql(`create table "billing_product_category" ("id" uuid not null, "admin_id" citext not null, "code" citext not null, "description" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_product_category" add constraint "billing_product_category_admin_id_code_unique" unique ("admin_id", "code");`);

    this.addSql(`create table "billing_settings" ("admin_id" citext not null, "invoicing_period" text not null default 'month', "payment_methods" jsonb not null, "default_payment_method" text not null default 'bank_transfer', "payment_term_days" int not null default 14, "locale_id" varchar(255) null, "seller" jsonb not null, "vat_accounting_currency" varchar(3) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("admin_id"));`);

    this.addSql(`create table "billing_series" ("id" uuid not null, "admin_id" citext not null, "code" citext not null, "name" varchar(255) null, "external_reference" citext null, "primary_document_type" text not null default 'invoice', "document_source" text not null default 'service', "item_sources" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_series" add constraint "billing_series_external_reference_unique" unique ("external_reference");`);
    this.addSql(`alter table "billing_series" add constraint "billing_series_admin_id_code_unique" unique ("admin_id", "code");`);

    this.addSql(`create table "billing_review_set" ("id" uuid not null, "admin_id" citext not null, "series_id" uuid not null, "code" varchar(255) not null, "period_from" timestamptz not null, "period_until" timestamptz not null, "state" text not null default 'open', "closed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_review_set" add constraint "billing_review_set_series_id_period_from_unique" unique ("series_id", "period_from");`);

    this.addSql(`create table "billing_box" ("id" uuid not null, "admin_id" citext not null, "series_id" uuid not null, "review_set_id" uuid not null, "review_set_sequence" int not null, "party_kind" text not null default 'customer', "party_id" uuid not null, "period_from" timestamptz not null, "period_until" timestamptz not null, "vat_country" varchar(2) not null, "currency" varchar(3) not null, "distinct_code" varchar(255) not null default '', "state" text not null default 'open', "deferred" boolean not null default false, "transferred" boolean not null default false, "locale_id" varchar(255) null, "rollup_group_by" varchar(255) not null default 'product', "negate_document_amounts" boolean not null default false, "billing_reference" varchar(255) null, "payment_method" varchar(255) null, "payment_period_days" int null, "invoice_code" varchar(255) null, "invoice_date" varchar(255) null, "document_kind" varchar(255) null, "closed_at" timestamptz null, "approved_at" timestamptz null, "finalized_at" timestamptz null, "transferred_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_box_review_set_id_id_index" on "billing_box" ("review_set_id", "id");`);
    this.addSql(`create index "billing_box_party_id_id_index" on "billing_box" ("party_id", "id");`);
    this.addSql(`alter table "billing_box" add constraint "billing_box_series_id_party_id_period_from_vat_co_54e6e_unique" unique ("series_id", "party_id", "period_from", "vat_country", "currency", "distinct_code");`);

    this.addSql(`create table "billing_document_file" ("id" uuid not null, "admin_id" citext not null, "box_id" uuid not null, "filename" varchar(255) not null, "content_type" varchar(255) not null, "size" int not null, "bytes" bytea not null, "primary" boolean not null default false, "draft" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_document_file" add constraint "billing_document_file_box_id_filename_unique" unique ("box_id", "filename");`);

    this.addSql(`create table "billing_box_delivery" ("id" uuid not null, "admin_id" citext not null, "box_id" uuid not null, "channel" text not null, "state" text not null default 'pending', "external_reference" citext null, "detail" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_box_delivery_box_id_index" on "billing_box_delivery" ("box_id");`);
    this.addSql(`alter table "billing_box_delivery" add constraint "billing_box_delivery_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "billing_rollup" ("id" uuid not null, "admin_id" citext not null, "box_id" uuid not null, "rollup_key" varchar(255) not null, "product_category" varchar(255) not null, "vat_kind" varchar(255) not null, "vat_percent" numeric(9,4) not null, "group_value" varchar(255) null, "context" varchar(255) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_rollup" add constraint "billing_rollup_box_id_rollup_key_unique" unique ("box_id", "rollup_key");`);

    this.addSql(`create table "billing_item" ("id" uuid not null, "admin_id" citext not null, "box_id" uuid not null, "rollup_id" uuid not null, "source_kind" varchar(255) not null, "subject_id" varchar(255) not null, "line_key" varchar(255) not null default '', "source_version" int not null default 1, "entry" text not null default 'original', "reverses_item_id" uuid null, "superseded" boolean not null default false, "party_id" uuid not null, "occurred_at" timestamptz not null, "product_category" varchar(255) not null, "vat_kind" varchar(255) not null, "vat_percent" numeric(9,4) not null, "vat_country" varchar(2) not null, "currency" varchar(3) not null, "description" text not null, "quantity" numeric(20,6) not null, "unit" varchar(255) not null, "unit_price" numeric(20,6) not null, "amount_excl_vat" numeric(20,2) not null, "vat_amount_unrounded" numeric(20,6) not null, "group_value" varchar(255) null, "sub_items" jsonb not null, "context" varchar(255) null, "reference" varchar(255) null, "box_category_description" varchar(255) null, "external_reference" citext null, "input" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_item_box_id_id_index" on "billing_item" ("box_id", "id");`);
    this.addSql(`create index "billing_item_rollup_id_index" on "billing_item" ("rollup_id");`);
    this.addSql(`alter table "billing_item" add constraint "billing_item_source_kind_subject_id_line_key_sour_ae6a3_unique" unique ("source_kind", "subject_id", "line_key", "source_version", "entry");`);

    this.addSql(`create unique index "billing_item_external_reference_unique" on "billing_item" ("admin_id", "external_reference") where "external_reference" is not null;`);
    this.addSql(`create table "billing_exchange_rate" ("id" uuid not null, "admin_id" citext not null, "currency" varchar(3) not null, "date" varchar(10) not null, "rate" numeric(20,6) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "billing_exchange_rate" add constraint "billing_exchange_rate_admin_id_currency_date_unique" unique ("admin_id", "currency", "date");`);
    this.addSql(`alter table "billing_exchange_rate" add constraint "billing_exchange_rate_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "administration" add "time_zone" varchar(255) not null default 'UTC';`);


    this.addSql(`alter table "billing_product_category" add constraint "billing_product_category_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);

    this.addSql(`alter table "billing_settings" add constraint "billing_settings_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "billing_settings" add constraint "billing_settings_invoicing_period_check" check ("invoicing_period" in ('month', 'quarter', 'year'));`);
    this.addSql(`alter table "billing_settings" add constraint "billing_settings_default_payment_method_check" check ("default_payment_method" in ('bank_transfer', 'direct_debit', 'card', 'other'));`);

    this.addSql(`alter table "billing_series" add constraint "billing_series_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_series" add constraint "billing_series_primary_document_type_check" check ("primary_document_type" in ('invoice', 'debit_note', 'credit_note', 'purchase_order', 'self_billing_invoice'));`);
    this.addSql(`alter table "billing_series" add constraint "billing_series_document_source_check" check ("document_source" in ('service', 'external'));`);

    this.addSql(`alter table "billing_review_set" add constraint "billing_review_set_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_review_set" add constraint "billing_review_set_series_id_foreign" foreign key ("series_id") references "billing_series" ("id");`);
    this.addSql(`alter table "billing_review_set" add constraint "billing_review_set_state_check" check ("state" in ('open', 'closed'));`);

    this.addSql(`alter table "billing_box" add constraint "billing_box_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_box" add constraint "billing_box_series_id_foreign" foreign key ("series_id") references "billing_series" ("id");`);
    this.addSql(`alter table "billing_box" add constraint "billing_box_review_set_id_foreign" foreign key ("review_set_id") references "billing_review_set" ("id");`);
    this.addSql(`alter table "billing_box" add constraint "billing_box_party_kind_check" check ("party_kind" in ('customer', 'roaming_partner'));`);
    this.addSql(`alter table "billing_box" add constraint "billing_box_state_check" check ("state" in ('open', 'closed', 'approved', 'ready', 'finalized'));`);

    this.addSql(`alter table "billing_document_file" add constraint "billing_document_file_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_document_file" add constraint "billing_document_file_box_id_foreign" foreign key ("box_id") references "billing_box" ("id");`);

    this.addSql(`alter table "billing_box_delivery" add constraint "billing_box_delivery_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_box_delivery" add constraint "billing_box_delivery_box_id_foreign" foreign key ("box_id") references "billing_box" ("id");`);
    this.addSql(`alter table "billing_box_delivery" add constraint "billing_box_delivery_channel_check" check ("channel" in ('email', 'post', 'peppol', 'portal', 'other'));`);
    this.addSql(`alter table "billing_box_delivery" add constraint "billing_box_delivery_state_check" check ("state" in ('pending', 'sent', 'delivered', 'failed'));`);

    this.addSql(`alter table "billing_rollup" add constraint "billing_rollup_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_rollup" add constraint "billing_rollup_box_id_foreign" foreign key ("box_id") references "billing_box" ("id");`);

    this.addSql(`alter table "billing_item" add constraint "billing_item_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_item" add constraint "billing_item_box_id_foreign" foreign key ("box_id") references "billing_box" ("id");`);
    this.addSql(`alter table "billing_item" add constraint "billing_item_rollup_id_foreign" foreign key ("rollup_id") references "billing_rollup" ("id");`);
    this.addSql(`alter table "billing_item" add constraint "billing_item_entry_check" check ("entry" in ('original', 'reversal'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "billing_exchange_rate" cascade;`);
    this.addSql(`drop function if exists svc_uuidv7();`);
    this.addSql(`alter table "billing_review_set" drop constraint "billing_review_set_series_id_foreign";`);
    this.addSql(`alter table "billing_box" drop constraint "billing_box_series_id_foreign";`);
    this.addSql(`alter table "billing_box" drop constraint "billing_box_review_set_id_foreign";`);
    this.addSql(`alter table "billing_document_file" drop constraint "billing_document_file_box_id_foreign";`);
    this.addSql(`alter table "billing_box_delivery" drop constraint "billing_box_delivery_box_id_foreign";`);
    this.addSql(`alter table "billing_rollup" drop constraint "billing_rollup_box_id_foreign";`);
    this.addSql(`alter table "billing_item" drop constraint "billing_item_box_id_foreign";`);
    this.addSql(`alter table "billing_item" drop constraint "billing_item_rollup_id_foreign";`);

    this.addSql(`drop table if exists "billing_number_counter" cascade;`);
    this.addSql(`drop table if exists "billing_product_category" cascade;`);
    this.addSql(`drop table if exists "billing_settings" cascade;`);
    this.addSql(`drop table if exists "billing_series" cascade;`);
    this.addSql(`drop table if exists "billing_review_set" cascade;`);
    this.addSql(`drop table if exists "billing_box" cascade;`);
    this.addSql(`drop table if exists "billing_document_file" cascade;`);
    this.addSql(`drop table if exists "billing_box_delivery" cascade;`);
    this.addSql(`drop table if exists "billing_rollup" cascade;`);
    this.addSql(`drop table if exists "billing_item" cascade;`);

    this.addSql(`alter table "administration" drop column "time_zone";`);
  }

}
