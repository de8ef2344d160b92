import { Migration } from '@mikro-orm/migrations';

// A CPO session has two sides that may belong to two administrations: a driver of B charging at
// an EVSE of A. `admin_id` stays the EVSE's (the CPO side); `driver_admin_id` is the driver's side's
// (its subscription's administration, else the session's own), which the MSP views, pricing and MSP
// drop-outs go by. Sessions stored before take their subscription's administration.
export class Migration20261129160000_session_driver_admin extends Migration {

  override name = 'Migration20261129160000_session_driver_admin';

  override up(): void | Promise<void> {
    this.addSql(`alter table "msp_charge_session" add column "driver_admin_id" citext null;`);
    this.addSql(`alter table "msp_charge_session" add constraint "msp_charge_session_driver_admin_id_foreign" foreign key ("driver_admin_id") references "administration" ("id") on delete set null;`);
    this.addSql(`update "msp_charge_session" s set "driver_admin_id" = coalesce((select t."admin_id" from "msp_token_subscription" t where t."id" = s."subscription_id"), s."admin_id")
      where s."admin_id" is not null or s."subscription_id" is not null;`);
    this.addSql(`create index "msp_charge_session_driver_admin_id_id_index" on "msp_charge_session" ("driver_admin_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "msp_charge_session" drop column "driver_admin_id";`);
  }

}
