import { Migration } from '@mikro-orm/migrations';

// A finalized box keeps the VAT accounting currency and the exchange rate its documents were issued
// with: its foreign currency totals were read with the rate of the day on every read, so a rate set
// or corrected afterwards changed a finalized box, and it no longer matched its documents. Boxes
// finalized before keep what a read showed until now: the settings' currency and the rate of their
// invoice date (or the latest earlier one).
export class Migration20261128020000_box_exchange_rate extends Migration {

  override name = 'Migration20261128020000_box_exchange_rate';

  override up(): void | Promise<void> {
    this.addSql(`alter table "billing_box" add column "vat_accounting_currency" varchar(3) null, add column "vat_exchange_rate" numeric(20,6) null;`);
    this.addSql(`update "billing_box" b set "vat_accounting_currency" = bs.vat_accounting_currency,
        "vat_exchange_rate" = (select x.rate from billing_exchange_rate x where x.admin_id = b.admin_id and x.currency = bs.vat_accounting_currency
          and x.date <= b.invoice_date order by x.date desc limit 1)
      from billing_settings bs where bs.admin_id = b.admin_id and b.state = 'finalized' and bs.vat_accounting_currency is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "billing_box" drop column "vat_accounting_currency", drop column "vat_exchange_rate";`);
  }

}
