import { Migration } from '@mikro-orm/migrations';

// An invoice code numbers one document of its series (found by probing, 2026-11-29): an external
// system's code was taken by every box finalized with it. The service's own codes are unique already
// (series code, year, counter); the index holds both, in any casing, and decides between finalizes at
// once. Codes given twice before it stop the migration, naming the first (they are legal numbers:
// an operator corrects them, the migration does not guess).
export class Migration20261129120000_box_invoice_code_unique extends Migration {

  override name = 'Migration20261129120000_box_invoice_code_unique';

  override up(): void | Promise<void> {
    this.addSql(`do $$
      declare taken record;
      begin
        select series_id, lower(invoice_code) as code, count(*) as boxes into taken from billing_box
          where invoice_code is not null group by series_id, lower(invoice_code) having count(*) > 1 limit 1;
        if found then
          raise exception 'billing series % has % boxes with invoice code %: give all but one another code before this migration',
            taken.series_id, taken.boxes, taken.code;
        end if;
      end $$;`);
    this.addSql(`create unique index "billing_box_series_invoice_code_unique" on "billing_box" ("series_id", lower("invoice_code")) where "invoice_code" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop index "billing_box_series_invoice_code_unique";');
  }

}
