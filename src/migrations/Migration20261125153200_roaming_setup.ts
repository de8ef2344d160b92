import { Migration } from '@mikro-orm/migrations';

export class Migration20261125153200_roaming_setup extends Migration {

  override name = 'Migration20261125153200_roaming_setup';

  override up(): void | Promise<void> {
    this.addSql(`create table "roaming_connection" ("id" uuid not null, "name" varchar(255) not null, "kind" text not null, "protocol" text not null default 'ocpi', "partner_id" uuid null, "url" varchar(2048) null, "notes" text null, "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "roaming_connection_partner_id_index" on "roaming_connection" ("partner_id");`);
    this.addSql(`alter table "roaming_connection" add constraint "roaming_connection_external_reference_unique" unique ("external_reference");`);

    this.addSql(`create table "roaming_agreement" ("id" uuid not null, "connection_id" uuid not null, "partner_id" uuid not null, "role" text not null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "defunct" boolean not null default false, "rate_plan_id" uuid null, "vat_kind" text not null default 'standard', "external_reference" citext null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "roaming_agreement_connection_id_index" on "roaming_agreement" ("connection_id");`);
    this.addSql(`create index "roaming_agreement_partner_id_index" on "roaming_agreement" ("partner_id");`);
    this.addSql(`alter table "roaming_agreement" add constraint "roaming_agreement_external_reference_unique" unique ("external_reference");`);

    this.addSql(`alter table "roaming_connection" add constraint "roaming_connection_partner_id_foreign" foreign key ("partner_id") references "roaming_partner" ("id") on delete set null;`);
    this.addSql(`alter table "roaming_connection" add constraint "roaming_connection_kind_check" check ("kind" in ('locally_owned', 'provider_facilitated'));`);
    this.addSql(`alter table "roaming_connection" add constraint "roaming_connection_protocol_check" check ("protocol" in ('ocpi'));`);

    this.addSql(`alter table "roaming_agreement" add constraint "roaming_agreement_connection_id_foreign" foreign key ("connection_id") references "roaming_connection" ("id");`);
    this.addSql(`alter table "roaming_agreement" add constraint "roaming_agreement_partner_id_foreign" foreign key ("partner_id") references "roaming_partner" ("id");`);
    this.addSql(`alter table "roaming_agreement" add constraint "roaming_agreement_role_check" check ("role" in ('msp', 'cpo'));`);
    this.addSql(`alter table "roaming_agreement" add constraint "roaming_agreement_vat_kind_check" check ("vat_kind" in ('standard', 'reduced', 'exempt', 'reverse_charge'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "roaming_agreement" drop constraint "roaming_agreement_connection_id_foreign";`);

    this.addSql(`drop table if exists "roaming_connection" cascade;`);
    this.addSql(`drop table if exists "roaming_agreement" cascade;`);

  }

}
