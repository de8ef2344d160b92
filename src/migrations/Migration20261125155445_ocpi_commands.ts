import { Migration } from '@mikro-orm/migrations';

export class Migration20261125155445_ocpi_commands extends Migration {

  override name = 'Migration20261125155445_ocpi_commands';

  override up(): void | Promise<void> {
    this.addSql(`create table "msp_roaming_command" ("id" uuid not null, "roaming_connection_id" varchar(36) not null, "type" text not null, "state" text not null, "location_id" varchar(36) null, "evse_uid" varchar(36) null, "connector_id" varchar(36) null, "evco_id" varchar(64) null, "session_id" varchar(36) null, "response" jsonb null, "result" jsonb null, "message" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "msp_roaming_command_roaming_connection_id_index" on "msp_roaming_command" ("roaming_connection_id");`);




    this.addSql(`alter table "msp_roaming_command" add constraint "msp_roaming_command_type_check" check ("type" in ('start_session', 'stop_session'));`);
    this.addSql(`alter table "msp_roaming_command" add constraint "msp_roaming_command_state_check" check ("state" in ('requested', 'accepted', 'rejected', 'failed', 'timed_out'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "msp_roaming_command" cascade;`);



  }

}
