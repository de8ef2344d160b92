import { Migration } from '@mikro-orm/migrations';

export class Migration20261123183945_customer_billing_phone extends Migration {

  override name = 'Migration20261123183945_customer_billing_phone';

  override up(): void | Promise<void> {
    this.addSql(`alter table "customer" add "billing_phone" varchar(40) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "customer" drop column "billing_phone";`);
  }

}
