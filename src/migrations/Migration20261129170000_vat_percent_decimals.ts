import { Migration } from '@mikro-orm/migrations';

// VAT rates keep up to 6 decimals (vat_rate.percentage numeric(12,6)), but the billing items, their
// roll-ups and the CPO reimbursement records stored the rate with 4: a rate of 19.12345 % was billed
// as 19.1235 %, and the VAT of 1,000,000.00 as 191,235.00 instead of 191,234.50. Widened, rows kept.
export class Migration20261129170000_vat_percent_decimals extends Migration {

  override name = 'Migration20261129170000_vat_percent_decimals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "billing_item" alter column "vat_percent" type numeric(12,6);`);
    this.addSql(`alter table "billing_rollup" alter column "vat_percent" type numeric(12,6);`);
    this.addSql(`alter table "cpo_charge_session_reimbursement" alter column "vat_percent" type numeric(12,6);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "billing_item" alter column "vat_percent" type numeric(9,4);`);
    this.addSql(`alter table "billing_rollup" alter column "vat_percent" type numeric(9,4);`);
    this.addSql(`alter table "cpo_charge_session_reimbursement" alter column "vat_percent" type numeric(7,4);`);
  }

}
