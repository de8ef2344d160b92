import { Migration } from '@mikro-orm/migrations';

export class Migration20261125153607_ocpi_peer extends Migration {

  override name = 'Migration20261125153607_ocpi_peer';

  override up(): void | Promise<void> {
    this.addSql(`create table "ocpi_peer" ("id" uuid not null, "roaming_connection_id" varchar(36) not null, "our_role" varchar(8) not null default 'EMSP', "status" text not null, "versions_url" varchar(255) null, "token_send" varchar(64) null, "token_accept" varchar(64) null, "version" varchar(8) null, "endpoints" jsonb not null, "roles" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "ocpi_peer" add constraint "ocpi_peer_roaming_connection_id_unique" unique ("roaming_connection_id");`);
    this.addSql(`alter table "ocpi_peer" add constraint "ocpi_peer_token_accept_unique" unique ("token_accept");`);




    this.addSql(`alter table "ocpi_peer" add constraint "ocpi_peer_status_check" check ("status" in ('token_a_issued', 'registered', 'unregistered'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ocpi_peer" cascade;`);



  }

}
