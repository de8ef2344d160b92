import { Migration } from '@mikro-orm/migrations';

// Collections run side by side (a backfill's parallel lanes): box numbers are unique within their
// review-set (box-numbering-lock.ts serializes who numbers), and items lose their last foreign key,
// to the roll-up: roll-ups are never deleted any more (an emptied one is hidden from reads).

export class Migration20261125203147_billing_concurrent_collection extends Migration {

  override name = 'Migration20261125203147_billing_concurrent_collection';

  override up(): void | Promise<void> {
    this.addSql(`alter table "billing_item" drop constraint "billing_item_rollup_id_foreign";`);




    this.addSql(`alter table "billing_box" add constraint "billing_box_review_set_id_review_set_sequence_unique" unique ("review_set_id", "review_set_sequence");`);



  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "billing_box" drop constraint "billing_box_review_set_id_review_set_sequence_unique";`);

    this.addSql(`alter table "billing_item" add constraint "billing_item_rollup_id_foreign" foreign key ("rollup_id") references "billing_rollup" ("id") on update no action on delete no action;`);




  }

}
