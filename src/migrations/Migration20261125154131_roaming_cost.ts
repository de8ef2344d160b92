import { Migration } from '@mikro-orm/migrations';

export class Migration20261125154131_roaming_cost extends Migration {

  override name = 'Migration20261125154131_roaming_cost';

  override up(): void | Promise<void> {

    this.addSql(`alter table "msp_charge_session" add "roaming_partner_id" uuid null, add "roaming_connection_id" uuid null, add "roaming_agreement_id" uuid null, add "roaming_admin_id" citext null, add "roaming_cost_source" varchar(255) null, add "roaming_currency" varchar(3) null, add "roaming_cost_excl_vat" numeric(20,2) null, add "roaming_cost_vat" numeric(20,2) null, add "roaming_cost_incl_vat" numeric(20,2) null, add "roaming_vat_kind" varchar(255) null, add "roaming_vat_percent" numeric(12,6) null, add "roaming_flat_excl_vat" numeric(20,2) null, add "roaming_energy_excl_vat" numeric(20,2) null, add "roaming_time_excl_vat" numeric(20,2) null, add "roaming_reservation_excl_vat" numeric(20,2) null;`);

    this.addSql(`alter table "msp_pricing_result" add "roaming_agreement" jsonb null;`);

  }

  override down(): void | Promise<void> {

    this.addSql(`alter table "msp_charge_session" drop column "roaming_partner_id", drop column "roaming_connection_id", drop column "roaming_agreement_id", drop column "roaming_admin_id", drop column "roaming_cost_source", drop column "roaming_currency", drop column "roaming_cost_excl_vat", drop column "roaming_cost_vat", drop column "roaming_cost_incl_vat", drop column "roaming_vat_kind", drop column "roaming_vat_percent", drop column "roaming_flat_excl_vat", drop column "roaming_energy_excl_vat", drop column "roaming_time_excl_vat", drop column "roaming_reservation_excl_vat";`);

    this.addSql(`alter table "msp_pricing_result" drop column "roaming_agreement";`);

  }

}
