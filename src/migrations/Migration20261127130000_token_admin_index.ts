import { Migration } from '@mikro-orm/migrations';

// An administration's tokens in evco_id order (its list pages) read the (current_admin_id, evco_id)
// index in order instead of walking the evco_id index through every other administration's tokens.
// It serves what the current_admin_id index served.
export class Migration20261127130000_token_admin_index extends Migration {

  override name = 'Migration20261127130000_token_admin_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "msp_token_current_admin_id_evco_id_index" on "msp_token" ("current_admin_id", "evco_id");`);
    this.addSql(`drop index "msp_token_current_admin_id_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "msp_token_current_admin_id_index" on "msp_token" ("current_admin_id");`);
    this.addSql(`drop index "msp_token_current_admin_id_evco_id_index";`);
  }

}
