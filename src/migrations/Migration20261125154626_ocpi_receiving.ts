import { Migration } from '@mikro-orm/migrations';

export class Migration20261125154626_ocpi_receiving extends Migration {

  override name = 'Migration20261125154626_ocpi_receiving';

  override up(): void | Promise<void> {
    this.addSql(`create table "ocpi_invalid_cdr" ("id" uuid not null, "roaming_connection_id" varchar(36) not null, "cdr_id" varchar(255) null, "body" jsonb not null, "reason" text not null, "resolved_at" timestamptz null, "charge_session_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "ocpi_invalid_cdr_roaming_connection_id_cdr_id_index" on "ocpi_invalid_cdr" ("roaming_connection_id", "cdr_id");`);

    this.addSql(`create table "ocpi_session" ("id" uuid not null, "roaming_connection_id" varchar(36) not null, "country_code" varchar(2) not null, "party_id" varchar(3) not null, "session_id" varchar(36) not null, "status" text not null, "kwh" numeric(20,6) not null, "evse_uid" varchar(36) not null, "evco_id" varchar(36) not null, "body" jsonb not null, "last_updated" timestamptz not null, "charge_session_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "ocpi_session" add constraint "ocpi_session_roaming_connection_id_country_code_p_2df90_unique" unique ("roaming_connection_id", "country_code", "party_id", "session_id");`);

    this.addSql(`create table "ocpi_tariff" ("id" uuid not null, "roaming_connection_id" varchar(36) not null, "country_code" varchar(2) not null, "party_id" varchar(3) not null, "tariff_id" varchar(36) not null, "body" jsonb not null, "last_updated" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "ocpi_tariff" add constraint "ocpi_tariff_roaming_connection_id_country_code_pa_23121_unique" unique ("roaming_connection_id", "country_code", "party_id", "tariff_id");`);




    this.addSql(`alter table "ocpi_session" add constraint "ocpi_session_status_check" check ("status" in ('ACTIVE', 'COMPLETED', 'INVALID', 'PENDING', 'RESERVATION'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ocpi_invalid_cdr" cascade;`);
    this.addSql(`drop table if exists "ocpi_session" cascade;`);
    this.addSql(`drop table if exists "ocpi_tariff" cascade;`);



  }

}
