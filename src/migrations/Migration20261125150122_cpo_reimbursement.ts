import { Migration } from '@mikro-orm/migrations';

export class Migration20261125150122_cpo_reimbursement extends Migration {

  override name = 'Migration20261125150122_cpo_reimbursement';

  override up(): void | Promise<void> {
    this.addSql(`create table "cpo_charge_session_reimbursement" ("id" uuid not null, "admin_id" citext not null, "session_id" uuid not null, "arrangement_id" uuid not null, "arrangement_external_reference" varchar(255) null, "plan_id" uuid null, "mode" varchar(255) not null, "customer_id" uuid not null, "customer_external_reference" varchar(255) null, "version" int not null default 1, "currency" varchar(3) not null, "start_at" timestamptz not null, "end_at" timestamptz not null, "evse_uid" varchar(255) not null, "evse" jsonb not null, "tariff_code" varchar(255) null, "charging_periods" jsonb not null, "subtotals" jsonb not null, "total_excl_vat" numeric(20,2) not null, "total_vat" numeric(20,2) not null, "total_incl_vat" numeric(20,2) not null, "vat_country" varchar(2) not null, "vat_kind" varchar(255) not null, "vat_percent" numeric(7,4) not null, "explanation" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "cpo_charge_session_reimbursement_admin_id_index" on "cpo_charge_session_reimbursement" ("admin_id");`);
    this.addSql(`create index "cpo_charge_session_reimbursement_customer_id_index" on "cpo_charge_session_reimbursement" ("customer_id");`);
    this.addSql(`create index "cpo_charge_session_reimbursement_evse_uid_index" on "cpo_charge_session_reimbursement" ("evse_uid");`);
    this.addSql(`alter table "cpo_charge_session_reimbursement" add constraint "cpo_charge_session_reimbursement_session_id_arran_688fe_unique" unique ("session_id", "arrangement_id");`);

    this.addSql(`alter table "cpo_reimbursement_plan" add "script" text null;`);

    this.addSql(`alter table "msp_dropout_case" add "side" text not null default 'msp', add "evse_uid" varchar(255) null;`);
    this.addSql(`alter table "msp_dropout_case" add constraint "msp_dropout_case_side_check" check ("side" in ('msp', 'cpo'));`);

    this.addSql(`alter table "msp_charge_session" drop constraint "msp_charge_session_status_check";`);
    this.addSql(`alter table "msp_charge_session" add "match_attempts" int not null default 0, add "retry_at" timestamptz null, add "matched_evse_id" uuid null, add "location_id" varchar(255) null, add "connector_id" varchar(255) null, add "reimbursement_excl_vat" numeric(20,2) null;`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_status_check" check ("status" in ('received', 'priced', 'processed', 'dropout', 'discarded'));`);



    this.addSql(`alter table "cpo_charge_session_reimbursement" add constraint "cpo_charge_session_reimbursement_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "cpo_charge_session_reimbursement" add constraint "cpo_charge_session_reimbursement_session_id_foreign" foreign key ("session_id") references "msp_charge_session" ("id");`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "cpo_charge_session_reimbursement" cascade;`);


    this.addSql(`alter table "cpo_reimbursement_plan" drop column "script";`);

    this.addSql(`alter table "msp_charge_session" drop constraint "msp_charge_session_status_check";`);
    this.addSql(`alter table "msp_charge_session" drop column "match_attempts", drop column "retry_at", drop column "matched_evse_id", drop column "location_id", drop column "connector_id", drop column "reimbursement_excl_vat";`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_status_check" check ("status" in ('received', 'priced', 'dropout', 'discarded'));`);

    this.addSql(`alter table "msp_dropout_case" drop constraint "msp_dropout_case_side_check";`);
    this.addSql(`alter table "msp_dropout_case" drop column "side", drop column "evse_uid";`);

  }

}
