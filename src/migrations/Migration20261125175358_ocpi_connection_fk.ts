import { Migration } from '@mikro-orm/migrations';

export class Migration20261125175358_ocpi_connection_fk extends Migration {

  override name = 'Migration20261125175358_ocpi_connection_fk';

  override up(): void | Promise<void> {



    this.addSql(`alter table "ocpi_tariff" alter column "roaming_connection_id" type uuid using ("roaming_connection_id"::text::uuid);`);
    this.addSql(`alter table "ocpi_tariff" add constraint "ocpi_tariff_roaming_connection_id_foreign" foreign key ("roaming_connection_id") references "roaming_connection" ("id");`);

    this.addSql(`alter table "ocpi_peer" alter column "roaming_connection_id" type uuid using ("roaming_connection_id"::text::uuid);`);
    this.addSql(`alter table "ocpi_peer" add constraint "ocpi_peer_roaming_connection_id_foreign" foreign key ("roaming_connection_id") references "roaming_connection" ("id");`);

    this.addSql(`alter table "msp_roaming_command" add "admin_id" citext null;`);
    this.addSql(`alter table "msp_roaming_command" add constraint "msp_roaming_command_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`alter table "msp_roaming_command" alter column "roaming_connection_id" type uuid using ("roaming_connection_id"::text::uuid);`);
    this.addSql(`alter table "msp_roaming_command" add constraint "msp_roaming_command_roaming_connection_id_foreign" foreign key ("roaming_connection_id") references "roaming_connection" ("id");`);

    this.addSql(`alter table "ocpi_session" add "admin_id" citext null;`);
    this.addSql(`alter table "ocpi_session" add constraint "ocpi_session_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`alter table "ocpi_session" alter column "roaming_connection_id" type uuid using ("roaming_connection_id"::text::uuid);`);
    this.addSql(`alter table "ocpi_session" add constraint "ocpi_session_roaming_connection_id_foreign" foreign key ("roaming_connection_id") references "roaming_connection" ("id");`);

    this.addSql(`alter table "ocpi_invalid_cdr" add "admin_id" citext null;`);
    this.addSql(`alter table "ocpi_invalid_cdr" add constraint "ocpi_invalid_cdr_admin_id_foreign" foreign key ("admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`alter table "ocpi_invalid_cdr" alter column "roaming_connection_id" type uuid using ("roaming_connection_id"::text::uuid);`);
    this.addSql(`alter table "ocpi_invalid_cdr" add constraint "ocpi_invalid_cdr_roaming_connection_id_foreign" foreign key ("roaming_connection_id") references "roaming_connection" ("id");`);



  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "msp_roaming_command" alter column "roaming_connection_id" type text using ("roaming_connection_id"::text);`);
    this.addSql(`alter table "msp_roaming_command" drop constraint "msp_roaming_command_roaming_connection_id_foreign";`);
    this.addSql(`alter table "msp_roaming_command" drop constraint "msp_roaming_command_admin_id_foreign";`);

    this.addSql(`alter table "ocpi_invalid_cdr" alter column "roaming_connection_id" type text using ("roaming_connection_id"::text);`);
    this.addSql(`alter table "ocpi_invalid_cdr" drop constraint "ocpi_invalid_cdr_roaming_connection_id_foreign";`);
    this.addSql(`alter table "ocpi_invalid_cdr" drop constraint "ocpi_invalid_cdr_admin_id_foreign";`);

    this.addSql(`alter table "ocpi_peer" alter column "roaming_connection_id" type text using ("roaming_connection_id"::text);`);
    this.addSql(`alter table "ocpi_peer" drop constraint "ocpi_peer_roaming_connection_id_foreign";`);

    this.addSql(`alter table "ocpi_session" alter column "roaming_connection_id" type text using ("roaming_connection_id"::text);`);
    this.addSql(`alter table "ocpi_session" drop constraint "ocpi_session_roaming_connection_id_foreign";`);
    this.addSql(`alter table "ocpi_session" drop constraint "ocpi_session_admin_id_foreign";`);

    this.addSql(`alter table "ocpi_tariff" alter column "roaming_connection_id" type text using ("roaming_connection_id"::text);`);
    this.addSql(`alter table "ocpi_tariff" drop constraint "ocpi_tariff_roaming_connection_id_foreign";`);



    this.addSql(`alter table "msp_roaming_command" drop column "admin_id";`);
    this.addSql(`alter table "msp_roaming_command" alter column "roaming_connection_id" type varchar(36) using ("roaming_connection_id"::varchar(36));`);

    this.addSql(`alter table "ocpi_invalid_cdr" drop column "admin_id";`);
    this.addSql(`alter table "ocpi_invalid_cdr" alter column "roaming_connection_id" type varchar(36) using ("roaming_connection_id"::varchar(36));`);

    this.addSql(`alter table "ocpi_peer" alter column "roaming_connection_id" type varchar(36) using ("roaming_connection_id"::varchar(36));`);

    this.addSql(`alter table "ocpi_session" drop column "admin_id";`);
    this.addSql(`alter table "ocpi_session" alter column "roaming_connection_id" type varchar(36) using ("roaming_connection_id"::varchar(36));`);

    this.addSql(`alter table "ocpi_tariff" alter column "roaming_connection_id" type varchar(36) using ("roaming_connection_id"::varchar(36));`);



  }

}
