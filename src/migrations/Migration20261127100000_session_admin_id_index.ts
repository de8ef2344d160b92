import { Migration } from '@mikro-orm/migrations';

// Sessions by administration in id order (an administration's list pages, the billing run's ranges
// of priced sessions) read the (admin_id, id) index in order instead of walking the id index through
// every other administration's sessions. It serves what the admin_id index served.
export class Migration20261127100000_session_admin_id_index extends Migration {

  override name = 'Migration20261127100000_session_admin_id_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "msp_charge_session_admin_id_id_index" on "msp_charge_session" ("admin_id", "id");`);
    this.addSql(`drop index "msp_charge_session_admin_id_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "msp_charge_session_admin_id_index" on "msp_charge_session" ("admin_id");`);
    this.addSql(`drop index "msp_charge_session_admin_id_id_index";`);
  }

}
