import { Migration } from '@mikro-orm/migrations';

// A processing batch asks which of its sessions credit movements name (a repriced session's earlier
// use of credit is released first): by an index, not a scan of the whole ledger per batch.
export class Migration20261126140000_credit_session_index extends Migration {

  override name = 'Migration20261126140000_credit_session_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "msp_monetary_credit_session_id_index" on "msp_monetary_credit" ("session_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "msp_monetary_credit_session_id_index";`);
  }

}
