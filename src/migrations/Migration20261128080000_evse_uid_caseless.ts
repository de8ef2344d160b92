import { Migration } from '@mikro-orm/migrations';

// An EVSE uid and a location id are identifiers, compared in any casing (interface spec, convention
// 5): the EVSE's own columns are citext, but a session's, a drop-out case's and a reimbursement's
// copies were varchar, so `GET /cpo-charge-session?evse_uid=`, `?location_id=`,
// `/cpo-charge-session-reimbursement?evse_uid=` and `/cpo-dropout-case?evse_uid=` found nothing in
// another casing, and not the sessions a sender wrote in another casing than the EVSE's. text to
// citext is binary-coercible: no table rewrite; the reimbursements' index is rebuilt.
const COLUMNS: [table: string, column: string][] = [
  ['msp_charge_session', 'evse_uid'],
  ['msp_charge_session', 'location_id'],
  ['msp_dropout_case', 'evse_uid'],
  ['cpo_charge_session_reimbursement', 'evse_uid'],
];

export class Migration20261128080000_evse_uid_caseless extends Migration {

  override name = 'Migration20261128080000_evse_uid_caseless';

  override up(): void | Promise<void> {
    for (const [table, column] of COLUMNS) this.addSql(`alter table "${table}" alter column "${column}" type citext;`);
  }

  override down(): void | Promise<void> {
    for (const [table, column] of COLUMNS) this.addSql(`alter table "${table}" alter column "${column}" type varchar(255);`);
  }

}
