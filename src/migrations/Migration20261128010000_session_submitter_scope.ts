import { Migration } from '@mikro-orm/migrations';

// The administrations of the credential that submitted a session (null: a credential without a
// limit, an OCPI peer, the demo): processing prices its driver's side only on a token of one of
// them (src/session-processing/batch-context.ts), so a credential limited to its administrations
// cannot charge another administration's customer by naming its token in a CPO session.
export class Migration20261128010000_session_submitter_scope extends Migration {

  override name = 'Migration20261128010000_session_submitter_scope';

  override up(): void | Promise<void> {
    this.addSql(`alter table "msp_charge_session" add column "submitter_admin_ids" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "msp_charge_session" drop column "submitter_admin_ids";`);
  }

}
