import { Migration } from '@mikro-orm/migrations';

// The operator's list filters read through indexes, never a scan of a big table: customers by a
// part of their name (trigrams: `name ilike '%part%'`), charge sessions by customer and by token,
// boxes by administration, each ordered by id like their pages.
export class Migration20261126130000_list_filters extends Migration {

  override name = 'Migration20261126130000_list_filters';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "customer_name_trgm_index" on "customer" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "msp_charge_session_customer_id_id_index" on "msp_charge_session" ("customer_id", "id");`);
    this.addSql(`create index "msp_charge_session_evco_id_id_index" on "msp_charge_session" ("evco_id", "id");`);
    this.addSql(`create index "billing_box_admin_id_id_index" on "billing_box" ("admin_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "billing_box_admin_id_id_index";`);
    this.addSql(`drop index if exists "msp_charge_session_evco_id_id_index";`);
    this.addSql(`drop index if exists "msp_charge_session_customer_id_id_index";`);
    this.addSql(`drop index if exists "customer_name_trgm_index";`);
  }

}
