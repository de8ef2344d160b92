import { Migration } from '@mikro-orm/migrations';

// An administration's customers in id order (its list pages) read the (admin_id, id) index in order
// instead of walking the id index through every other administration's customers. It serves what
// the admin_id index served.
export class Migration20261127110000_customer_admin_id_index extends Migration {

  override name = 'Migration20261127110000_customer_admin_id_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "customer_admin_id_id_index" on "customer" ("admin_id", "id");`);
    this.addSql(`drop index "customer_admin_id_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "customer_admin_id_index" on "customer" ("admin_id");`);
    this.addSql(`drop index "customer_admin_id_id_index";`);
  }

}
