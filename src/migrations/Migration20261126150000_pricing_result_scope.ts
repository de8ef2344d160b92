import { Migration } from '@mikro-orm/migrations';

// The pricing results of a credential limited to an administration read through an index in the
// order of their pages (by id), never by walking every administration's results and dropping the
// others': an export of a small administration in a big instance reads only its own rows.
export class Migration20261126150000_pricing_result_scope extends Migration {

  override name = 'Migration20261126150000_pricing_result_scope';

  override up(): void | Promise<void> {
    this.addSql(`create index "msp_pricing_result_admin_id_id_index" on "msp_pricing_result" ("admin_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "msp_pricing_result_admin_id_id_index";`);
  }

}
