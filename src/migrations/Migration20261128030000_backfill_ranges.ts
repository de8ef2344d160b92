import { Migration } from '@mikro-orm/migrations';

// A backfill bills every source's subjects of an administration in id ranges (src/billing/backfill-ranges.ts):
// CPO reimbursement records by session id, roaming sessions by id. Each range is read by an index:
// the reimbursements' administration index gains the session id, and roaming sessions (only those:
// the other sessions carry no roaming administration) get a partial index of their own.
export class Migration20261128030000_backfill_ranges extends Migration {

  override name = 'Migration20261128030000_backfill_ranges';

  override up(): void | Promise<void> {
    this.addSql(`create index "cpo_charge_session_reimbursement_admin_id_session_id_index" on "cpo_charge_session_reimbursement" ("admin_id", "session_id");`);
    this.addSql(`drop index "cpo_charge_session_reimbursement_admin_id_index";`);
    this.addSql(`create index "msp_charge_session_roaming_admin_id_id_index" on "msp_charge_session" ("roaming_admin_id", "id") where "roaming_admin_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "msp_charge_session_roaming_admin_id_id_index";`);
    this.addSql(`create index "cpo_charge_session_reimbursement_admin_id_index" on "cpo_charge_session_reimbursement" ("admin_id");`);
    this.addSql(`drop index "cpo_charge_session_reimbursement_admin_id_session_id_index";`);
  }

}
