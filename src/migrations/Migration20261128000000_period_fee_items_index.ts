import { Migration } from '@mikro-orm/migrations';

// The fee items a period's billing covers (src/billing/period-fee-subjects.ts): the current items of
// the periodic sources for an administration and period, read at every period start and review-set
// close. Only those sources' items: a session's items never enter it.
export class Migration20261128000000_period_fee_items_index extends Migration {

  override name = 'Migration20261128000000_period_fee_items_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "billing_item_period_fee_index" on "billing_item" ("admin_id", "occurred_at")
      where "source_kind" in ('msp_subscription_fee', 'cpo_subscription_fee') and "entry" = 'original' and not "superseded";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "billing_item_period_fee_index";`);
  }

}
