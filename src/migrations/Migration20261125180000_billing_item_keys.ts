import { Migration } from '@mikro-orm/migrations';

// Billing items keep one foreign key, to their roll-up: the roll-up's own keys hold its box and
// administration, and the billing core writes an item's box and administration from its roll-up's
// box. The two checks per item row more took about a third of writing the items of a backfill.
export class Migration20261125180000_billing_item_keys extends Migration {

  override name = 'Migration20261125180000_billing_item_keys';

  override up(): void | Promise<void> {
    this.addSql(`alter table "billing_item" drop constraint "billing_item_admin_id_foreign";`);
    this.addSql(`alter table "billing_item" drop constraint "billing_item_box_id_foreign";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "billing_item" add constraint "billing_item_admin_id_foreign" foreign key ("admin_id") references "administration" ("id");`);
    this.addSql(`alter table "billing_item" add constraint "billing_item_box_id_foreign" foreign key ("box_id") references "billing_box" ("id");`);
  }

}
