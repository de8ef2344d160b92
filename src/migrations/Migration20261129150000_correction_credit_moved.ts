import { Migration } from '@mikro-orm/migrations';

// A plan-or-customer correction dated in the future moved the credit to its successor at once, so
// the old subscription, still valid, priced its sessions without it. The credit now moves at the
// correction's moment (src/msp/credit-succession.ts), once: the correction records when. Every
// correction made before moved its credit when it was made.
export class Migration20261129150000_correction_credit_moved extends Migration {

  override name = 'Migration20261129150000_correction_credit_moved';

  override up(): void | Promise<void> {
    this.addSql(`alter table "msp_subscription_correction" add column "credit_moved_at" timestamptz null;`);
    this.addSql(`update "msp_subscription_correction" set "credit_moved_at" = "created_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "msp_subscription_correction" drop column "credit_moved_at";`);
  }

}
