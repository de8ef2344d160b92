import { Migration } from '@mikro-orm/migrations';

// A roaming partner billed under reverse charge (AE) must be named on the invoice by its VAT number
// (EN 16931 BR-AE-02), which a partner had no column for: its boxes could never be finalized.
export class Migration20261129210000_roaming_partner_vat_number extends Migration {

  override name = 'Migration20261129210000_roaming_partner_vat_number';

  override up(): void | Promise<void> {
    this.addSql(`alter table "roaming_partner" add column "vat_number" varchar(255) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "roaming_partner" drop column "vat_number";`);
  }

}
